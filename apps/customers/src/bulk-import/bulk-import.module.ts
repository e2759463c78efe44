import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { PlatformConfigModule } from '../platform-config/platform-config.module';
import { BulkImportHandlers } from './bulk-import.handlers';
import { BulkImportRepository } from './bulk-import.repository';
import { BulkImportService } from './bulk-import.service';

@Module({
  imports: [CustomersModule, PlatformConfigModule],
  controllers: [BulkImportHandlers],
  providers: [BulkImportService, BulkImportRepository],
})
export class BulkImportModule {}
