import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { VerificationsHandlers } from './verifications.handlers';
import { VerificationsService } from './verifications.service';

@Module({
  imports: [CustomersModule],
  controllers: [VerificationsHandlers],
  providers: [VerificationsService],
  exports: [VerificationsService],
})
export class VerificationsModule {}
