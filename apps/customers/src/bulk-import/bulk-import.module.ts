import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { PlatformConfigModule } from '../platform-config/platform-config.module';
import { ProvisioningModule } from '../provisioning/provisioning.module';
import { BulkImportHandlers } from './bulk-import.handlers';
import { BulkImportRepository } from './bulk-import.repository';
import { BulkImportService } from './bulk-import.service';

@Module({
  imports: [CustomersModule, PlatformConfigModule, ProvisioningModule],
  controllers: [BulkImportHandlers],
  providers: [BulkImportService, BulkImportRepository],
})
export class BulkImportModule {}
