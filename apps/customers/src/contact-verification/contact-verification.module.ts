import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { ContactVerificationHandlers } from './contact-verification.handlers';
import { ContactVerificationService } from './contact-verification.service';

@Module({
  imports: [CustomersModule],
  controllers: [ContactVerificationHandlers],
  providers: [ContactVerificationService],
})
export class ContactVerificationModule {}
