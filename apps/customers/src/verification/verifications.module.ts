import { Module } from '@nestjs/common';
import { BeneficialOwnersModule } from '../beneficial-owners/beneficial-owners.module';
import { CustomersModule } from '../customers/customers.module';
import { PlatformConfigModule } from '../platform-config/platform-config.module';
import { VerificationsHandlers } from './verifications.handlers';
import { VerificationsRepository } from './verifications.repository';
import { VerificationsService } from './verifications.service';

@Module({
  imports: [CustomersModule, PlatformConfigModule, BeneficialOwnersModule],
  controllers: [VerificationsHandlers],
  providers: [VerificationsService, VerificationsRepository],
  exports: [VerificationsService, VerificationsRepository],
})
export class VerificationsModule {}
