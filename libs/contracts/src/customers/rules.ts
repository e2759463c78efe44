import { FieldError } from '@paykit/errors';
import { CustomerFieldsInput } from './requests';

/** The type rules shared by create and update: business data only on BUSINESS customers, and vice versa. */
export function customerShapeErrors(customerType: unknown, fields: CustomerFieldsInput, requireBusinessInfo: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (customerType === 'BUSINESS') {
    if (requireBusinessInfo && fields.businessInfo === undefined) errors.push({ field: 'businessInfo', message: 'businessInfo is required for BUSINESS customers' });
    for (const field of ['fullName', 'birthDate', 'nationality'] as const) {
      if (fields[field] !== undefined) errors.push({ field, message: `${field} is only accepted for INDIVIDUAL customers (use businessInfo)` });
    }
  }
  if (customerType === 'INDIVIDUAL' && fields.businessInfo !== undefined) {
    errors.push({ field: 'businessInfo', message: 'businessInfo is only accepted for BUSINESS customers' });
  }
  return errors;
}
