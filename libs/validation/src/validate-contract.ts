import { DECORATORS } from '@nestjs/swagger';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationError, ValidationTypes, validateSync } from 'class-validator';
import { FieldError, ServiceError } from '@paykit/errors';
import { toFieldErrors } from './field-errors';
import { cacheValidationMetadata } from './metadata-cache';

cacheValidationMetadata();

/**
 * A contract class whose rules span several fields (e.g. a value that must agree with another)
 * implements this; its errors are listed together with the per-field ones, so a client still
 * learns every problem at once. It runs on possibly invalid input and must not throw.
 */
export interface CrossFieldRules {
  crossFieldErrors(): FieldError[];
}

function hasCrossFieldRules(value: object): value is CrossFieldRules {
  return typeof (value as Partial<CrossFieldRules>).crossFieldErrors === 'function';
}

/** The options every validation in the product uses: unknown fields are errors, every error is reported. */
export const VALIDATION_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  // `value` is needed to tell a missing field from a bad one; it never reaches a response.
  validationError: { target: true, value: true },
  stopAtFirstError: false,
} as const;

export function invalidInputFrom(errors: ValidationError[]): ServiceError {
  return ServiceError.invalidInput(toFieldErrors(errors));
}

/** Events and jobs: a writer may add fields its readers do not read yet (docs/compatibility.md), so those are dropped. */
const DROPPING_UNKNOWN_FIELDS = { ...VALIDATION_OPTIONS, forbidNonWhitelisted: false } as const;

export interface ContractValidation<T> {
  /**
   * The rules of the service that owns the request (business rules, which live in the service
   * rather than the contract): like cross-field rules, they run on possibly invalid input, must
   * not throw, and their errors are listed with the others.
   */
  ownerRules?: (request: T) => FieldError[];
  /** Fields the class does not declare are refused (requests), or dropped from the result (events, jobs). */
  unknownFields?: 'refuse' | 'drop';
  /**
   * 'refuse': a JSON null is refused for every field its contract does not declare `nullable` (the
   * API document's rule, applied to what clients send). Messages between services keep the
   * class-validator reading, where an optional field may be null.
   */
  nulls?: 'refuse';
}

/**
 * Validates a plain payload against a contract class (the one validation path, shared by the
 * gateway's pipe, the services' handlers, the event consumers and the scheduler). Throws 400
 * INVALID_INPUT listing every bad field.
 */
export function validateContract<T extends object>(type: ClassConstructor<T>, plain: unknown, options: ContractValidation<T> = {}): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw ServiceError.invalidInput([{ field: '', message: 'request body must be a JSON object' }]);
  }
  const unacceptable = rawInputErrors(plain);
  if (unacceptable.length > 0) throw ServiceError.invalidInput(unacceptable);
  const instance = plainToInstance(type, plain, { enableImplicitConversion: false });
  const errors = toFieldErrors(validateSync(instance, options.unknownFields === 'drop' ? DROPPING_UNKNOWN_FIELDS : VALIDATION_OPTIONS));
  const structural = [...arraysInPlaceOfObjects(instance), ...(options.nulls === 'refuse' ? nullsWhereNotNullable(instance) : [])];
  errors.push(...structural.filter((e) => !errors.some((reported) => reported.field === e.field)));
  const ruleErrors = [...(hasCrossFieldRules(instance) ? instance.crossFieldErrors() : []), ...(options.ownerRules?.(instance) ?? [])];
  // A field already reported (or inside one) is not reported twice.
  const reported = (field: string) => errors.some((e) => field === e.field || field.startsWith(`${e.field}.`));
  errors.push(...ruleErrors.filter((e) => !reported(e.field)));
  if (errors.length > 0) throw ServiceError.invalidInput(errors);
  return instance;
}

/** Keys no contract has; class-transformer throws (a 500) on a nested object carrying them. */
const RESERVED_KEYS = ['constructor', 'prototype', '__proto__'];

/** Deeper than any contract nests; walking (or transforming) a deeper payload could exhaust the stack. */
const MAX_DEPTH = 32;

/** A NUL, or a UTF-16 surrogate without its pair: text PostgreSQL cannot store (it would answer an encoding error, a 500). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What no contract accepts, found before any contract is applied: reserved keys, text that cannot
 * be stored, and nesting deeper than any contract. Each is reported with its field. The gateway
 * runs it on every parsed body before anything else walks it (a signature digest, an idempotency
 * hash); every contract validation runs it again.
 */
export function rawInputErrors(value: unknown, path = '', depth = 0): FieldError[] {
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value) ? [{ field: path, message: `${path} must be valid text without NUL characters or unpaired surrogates` }] : [];
  if (typeof value !== 'object' || value === null) return [];
  if (depth >= MAX_DEPTH) return [{ field: path, message: `${path} is nested more than ${MAX_DEPTH} levels deep` }];
  const errors: FieldError[] = [];
  for (const key of Object.keys(value)) {
    const field = path ? `${path}.${key}` : key;
    if (RESERVED_KEYS.includes(key)) errors.push({ field, message: `${field} is not a recognised field` });
    else if (UNSTORABLE_TEXT.test(key)) errors.push({ field: path, message: `${path || 'the body'} has a field name with a NUL character or an unpaired surrogate` });
    else errors.push(...rawInputErrors((value as Record<string, unknown>)[key], field, depth + 1));
  }
  return errors;
}

/**
 * A nested object (`@ValidateNested()` without `each`) sent as an array: class-validator validates
 * an array's elements in place of the object, so `personalInfo: []` (no elements, no errors) or
 * `merchant: [{...}]` would pass and reach the service as an array. Each is reported like any
 * other wrong type. Contracts declare arrays of objects with `each: true`, which this leaves alone.
 */
function arraysInPlaceOfObjects(value: object, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  const rules = getMetadataStorage().getTargetValidationMetadatas(value.constructor, '', true, false);
  for (const rule of rules) {
    if (rule.type !== ValidationTypes.NESTED_VALIDATION) continue;
    const child = (value as Record<string, unknown>)[rule.propertyName];
    if (typeof child !== 'object' || child === null) continue;
    const field = path ? `${path}.${rule.propertyName}` : rule.propertyName;
    if (Array.isArray(child) && !rule.each) {
      if (!errors.some((e) => e.field === field)) errors.push({ field, message: `${field} must be an object`, constraint: { format: 'object' } });
      continue;
    }
    // rawInputErrors bounded the depth before any contract applied: this recursion is bounded too.
    const items = itemsOf(child, field);
    for (const [item, itemPath] of items) {
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) errors.push(...arraysInPlaceOfObjects(item, itemPath));
    }
  }
  return errors;
}

/** Whether the contract declares `property` nullable in its API document (`@ApiProperty({ nullable: true })`). */
function declaredNullable(type: object, property: string): boolean {
  const documented = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, type, property) as { nullable?: boolean } | undefined;
  return documented?.nullable === true;
}

/**
 * A JSON null where the API document has no null: class-validator reads an `@IsOptional()` field's
 * null as absent, so `amount: null` would pass and reach the service, which reads it as a value.
 * Each is reported like a wrong type; nested contracts (objects and arrays of them) are walked too.
 */
function nullsWhereNotNullable(value: object, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  for (const [property, child] of Object.entries(value)) {
    const field = path ? `${path}.${property}` : property;
    if (child === null) {
      if (!declaredNullable(Object.getPrototypeOf(value) as object, property))
        errors.push({ field, message: `${field} must not be null; omit it instead`, constraint: { nullable: false } });
      continue;
    }
    // rawInputErrors bounded the depth before any contract applied: this recursion is bounded too.
    const items = itemsOf(child, field);
    for (const [item, itemPath] of items) {
      if (isContractInstance(item)) errors.push(...nullsWhereNotNullable(item, itemPath));
    }
  }
  return errors;
}

/** An object a nested contract class made (`@Type`), not a free-form JSON object (metadata maps keep their nulls). */
function isContractInstance(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype;
}

/** A nested value as the contract items under it: each element of an array (`field.i`), or the value itself. */
function itemsOf(child: unknown, field: string): Array<readonly [unknown, string]> {
  return Array.isArray(child) ? child.map((item: unknown, i) => [item, `${field}.${i}`] as const) : [[child, field] as const];
}
