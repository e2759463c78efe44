import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { ContactCodesModule } from './contact-codes.module';
import { ContactVerificationHandlers } from './contact-verification.handlers';
import { ContactVerificationService } from './contact-verification.service';

@Module({
  imports: [CustomersModule, ContactCodesModule],
  controllers: [ContactVerificationHandlers],
  providers: [ContactVerificationService],
})
export class ContactVerificationModule {}
