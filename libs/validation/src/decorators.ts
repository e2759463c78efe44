import { ValidationOptions, ValidateBy, buildMessage, isISO31661Alpha2, matches } from 'class-validator';
import { FieldConstraint } from '@paykit/errors';

function withConstraint(options: ValidationOptions | undefined, constraint: FieldConstraint): ValidationOptions {
  return { ...options, context: { ...(options?.context as object), constraint } };
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a `YYYY-MM-DD` string naming a day that exists in the Gregorian calendar. */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const parts = CALENDAR_DATE.exec(value);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: isCalendarDate,
        defaultMessage: buildMessage((each) => `${each}$property must be an existing date in YYYY-MM-DD format`, options),
      },
    },
    withConstraint(options, { format: 'date' }),
  );
}

const E164 = /^\+[1-9]\d{6,14}$/;

export function isE164(value: unknown): boolean {
  return typeof value === 'string' && E164.test(value);
}

export function IsE164Phone(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isE164Phone',
      validator: {
        validate: isE164,
        defaultMessage: buildMessage((each) => `${each}$property must be a phone number in E.164 format (e.g. +14155550123)`, options),
      },
    },
    withConstraint(options, { format: 'e.164' }),
  );
}

export function IsCountryCode(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCountryCode',
      validator: {
        validate: (value) => typeof value === 'string' && isISO31661Alpha2(value) && value === value.toUpperCase(),
        defaultMessage: buildMessage((each) => `${each}$property must be an ISO 3166-1 alpha-2 country code (e.g. US)`, options),
      },
    },
    withConstraint(options, { format: 'iso3166-1-alpha-2' }),
  );
}

/** A regular-expression rule reported with its JavaScript pattern, as the spec's `constraint.pattern`. */
export function MatchesPattern(pattern: RegExp, description: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'matchesPattern',
      validator: {
        validate: (value) => typeof value === 'string' && matches(value, pattern),
        defaultMessage: buildMessage((each) => `${each}$property must be ${description}`, options),
      },
    },
    withConstraint(options, { pattern: pattern.source }),
  );
}

/** A value from a closed list, reported with the allowed values as `constraint.enum`. */
export function IsOneOf(values: readonly string[], options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isOneOf',
      validator: {
        validate: (value) => typeof value === 'string' && values.includes(value),
        defaultMessage: buildMessage((each) => `${each}$property must be one of: ${values.join(', ')}`, options),
      },
    },
    withConstraint(options, { enum: [...values] }),
  );
}

/** An amount in the currency's smallest unit: a positive integer JavaScript can hold exactly. */
export function IsPositiveMinorAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPositiveMinorAmount',
      validator: {
        validate: (value) => typeof value === 'number' && Number.isSafeInteger(value) && value > 0,
        defaultMessage: buildMessage((each) => `${each}$property must be an integer greater than 0 (smallest currency unit)`, options),
      },
    },
    withConstraint(options, { format: 'int64', exclusiveMinimum: 0 }),
  );
}
