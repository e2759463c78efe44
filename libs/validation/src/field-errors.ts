import { ValidationError, getMetadataStorage } from 'class-validator';
import { FieldConstraint, FieldError } from '@paykit/errors';

/**
 * class-validator constraint names that map onto the spec's named formats.
 * Anything not listed here and without a `constraint` context is reported without one.
 */
const NAMED_FORMATS: Record<string, string> = {
  isEmail: 'email',
  isISO31661Alpha2: 'iso3166-1-alpha-2',
  isUrl: 'url',
  isURL: 'url',
  isLocale: 'bcp47-language-tag',
  isISO8601: 'date-time',
  isDateString: 'date-time',
  isUUID: 'uuid',
  isInt: 'int64',
  isNumber: 'number',
  isString: 'string',
  isBoolean: 'boolean',
  isObject: 'object',
  isArray: 'array',
};

interface MetadataLike {
  name?: string;
  propertyName: string;
  constraints?: unknown[];
  target: unknown;
}

function builtInConstraint(target: object | undefined, property: string, name: string): FieldConstraint | undefined {
  if (NAMED_FORMATS[name]) return { format: NAMED_FORMATS[name] };
  if (!target) return undefined;
  const metadata = (getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false) as MetadataLike[]).find(
    (m) => m.propertyName === property && m.name === name,
  );
  const args = metadata?.constraints ?? [];
  switch (name) {
    case 'matches':
      return args[0] instanceof RegExp ? { pattern: args[0].source } : { pattern: String(args[0]) };
    case 'isIn':
      return { enum: (args[0] as unknown[]).map(String) };
    case 'isEnum':
      return { enum: Object.values(args[0] as object).map(String) };
    case 'minLength':
    case 'arrayMinSize':
      return { minLength: Number(args[0]) };
    case 'maxLength':
    case 'arrayMaxSize':
      return { maxLength: Number(args[0]) };
    case 'isLength':
      return { minLength: Number(args[0]), ...(args[1] !== undefined ? { maxLength: Number(args[1]) } : {}) };
    case 'min':
      return { minimum: Number(args[0]) };
    case 'max':
      return { maximum: Number(args[0]) };
    default:
      return undefined;
  }
}

/**
 * Turns class-validator's tree into the flat `details.errors[]` list: one entry per failed
 * field (dot path), the most telling constraint first. Every invalid field is listed.
 */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    const constraintNames = Object.keys(error.constraints ?? {});
    if (constraintNames.length > 0) {
      // Report one entry per field, the rule that explains it best: unknown field, then
      // missing value, then wrong type, then the format rules.
      const name = pickConstraint(constraintNames);
      if (error.value === undefined && name !== 'whitelistValidation') {
        out.push({ field: path, message: `${path} is required` });
        continue;
      }
      const context = error.contexts?.[name] as { constraint?: FieldConstraint } | undefined;
      const constraint = context?.constraint ?? builtInConstraint(error.target, error.property, name);
      const message = name === 'whitelistValidation' ? `${path} is not a recognised field` : qualify(error.constraints![name], error.property, path);
      out.push({ field: path, message, ...(constraint ? { constraint } : {}) });
    }
    if (error.children && error.children.length > 0) {
      out.push(...toFieldErrors(error.children, path));
    }
  }
  return out;
}

const TYPE_RULES = ['isString', 'isNumber', 'isInt', 'isBoolean', 'isObject', 'isArray', 'nestedValidation', 'isNotEmpty', 'isDefined'];

function pickConstraint(names: string[]): string {
  if (names.includes('whitelistValidation')) return 'whitelistValidation';
  return TYPE_RULES.find((rule) => names.includes(rule)) ?? names[0];
}

/** class-validator messages start with the bare property name; use the full path instead. */
function qualify(message: string, property: string, path: string): string {
  return message.startsWith(property) ? path + message.slice(property.length) : message;
}
