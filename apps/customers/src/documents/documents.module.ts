import { Module } from '@nestjs/common';
import { BeneficialOwnersModule } from '../beneficial-owners/beneficial-owners.module';
import { CustomersModule } from '../customers/customers.module';
import { VerificationsModule } from '../verification/verifications.module';
import { DocumentsHandlers } from './documents.handlers';
import { DocumentsRepository } from './documents.repository';
import { DocumentsService } from './documents.service';

@Module({
  imports: [CustomersModule, BeneficialOwnersModule, VerificationsModule],
  controllers: [DocumentsHandlers],
  providers: [DocumentsService, DocumentsRepository],
})
export class DocumentsModule {}
