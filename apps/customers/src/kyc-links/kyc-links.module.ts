import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { VerificationsModule } from '../verification/verifications.module';
import { KycLinksHandlers } from './kyc-links.handlers';
import { KycLinksRepository } from './kyc-links.repository';
import { KycLinksService } from './kyc-links.service';

@Module({
  imports: [CustomersModule, VerificationsModule],
  controllers: [KycLinksHandlers],
  providers: [KycLinksService, KycLinksRepository],
})
export class KycLinksModule {}
