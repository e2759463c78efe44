import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { ProvisioningHandlers } from './provisioning.handlers';
import { ProvisioningRepository } from './provisioning.repository';
import { ProvisioningService } from './provisioning.service';

@Module({
  imports: [CustomersModule],
  controllers: [ProvisioningHandlers],
  providers: [ProvisioningService, ProvisioningRepository],
  exports: [ProvisioningRepository],
})
export class ProvisioningModule {}
