import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { VerificationsHandlers } from './verifications.handlers';
import { VerificationsRepository } from './verifications.repository';
import { VerificationsService } from './verifications.service';

@Module({
  imports: [CustomersModule],
  controllers: [VerificationsHandlers],
  providers: [VerificationsService, VerificationsRepository],
  exports: [VerificationsService, VerificationsRepository],
})
export class VerificationsModule {}
