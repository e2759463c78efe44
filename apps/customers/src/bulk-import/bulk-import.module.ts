import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { PlatformConfigModule } from '../platform-config/platform-config.module';
import { BulkImportHandlers } from './bulk-import.handlers';
import { BulkImportService } from './bulk-import.service';

@Module({
  imports: [CustomersModule, PlatformConfigModule],
  controllers: [BulkImportHandlers],
  providers: [BulkImportService],
})
export class BulkImportModule {}
