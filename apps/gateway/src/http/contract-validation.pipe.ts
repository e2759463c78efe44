import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { validateContract } from '@paykit/validation';

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Array, Object]);

/**
 * Validates bodies and queries against their contract classes — the same validation the
 * services run on the messages they receive. Every invalid field is reported at once.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const type = metadata.metatype;
    if ((metadata.type !== 'body' && metadata.type !== 'query') || !type || PRIMITIVES.has(type)) return value;
    // No body at all reads as an empty object (every field absent); a JSON `null` is a body that is
    // not an object, and is refused like any other (validateContract).
    const input = metadata.type === 'body' && value === undefined ? {} : value;
    return validateContract(type as ClassConstructor<object>, input);
  }
}
