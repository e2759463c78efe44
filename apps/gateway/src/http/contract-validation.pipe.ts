import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { ServiceError } from '@paykit/errors';
import { rawInputErrors, validateContract } from '@paykit/validation';

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Array, Object]);

/**
 * Validates bodies and queries against their contract classes — the same validation the
 * services run on the messages they receive. Every invalid field is reported at once.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const type = metadata.metatype;
    // A path id no resource can have (a NUL, an unpaired surrogate) is refused here, naming the
    // parameter, before any service or query sees it.
    if (metadata.type === 'param' && typeof value === 'string' && metadata.data) {
      const unacceptable = rawInputErrors({ [metadata.data]: value });
      if (unacceptable.length > 0) throw ServiceError.invalidInput(unacceptable);
      return value;
    }
    if ((metadata.type !== 'body' && metadata.type !== 'query') || !type || PRIMITIVES.has(type)) return value;
    // No body at all reads as an empty object (every field absent); a JSON `null` is a body that is
    // not an object, and is refused like any other (validateContract).
    const input = metadata.type === 'body' && value === undefined ? {} : value;
    return validateContract(type as ClassConstructor<object>, input, { nulls: 'refuse' });
  }
}
