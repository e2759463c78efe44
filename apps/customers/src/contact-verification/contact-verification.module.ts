import { forwardRef, Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { ContactCodesRepository } from './contact-codes.repository';
import { ContactVerificationHandlers } from './contact-verification.handlers';
import { ContactVerificationService } from './contact-verification.service';

@Module({
  imports: [forwardRef(() => CustomersModule)],
  controllers: [ContactVerificationHandlers],
  providers: [ContactVerificationService, ContactCodesRepository],
  exports: [ContactCodesRepository],
})
export class ContactVerificationModule {}
