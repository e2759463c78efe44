import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { DocumentsHandlers } from './documents.handlers';
import { DocumentsService } from './documents.service';

@Module({
  imports: [CustomersModule],
  controllers: [DocumentsHandlers],
  providers: [DocumentsService],
})
export class DocumentsModule {}
