import { Module } from '@nestjs/common';
import { ContactCodesRepository } from './contact-codes.repository';

/** The contact codes' table alone: customers drop a pending code when the email or phone changes, below contact verification. */
@Module({
  providers: [ContactCodesRepository],
  exports: [ContactCodesRepository],
})
export class ContactCodesModule {}
