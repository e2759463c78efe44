import { Module } from '@nestjs/common';
import { PersistenceModule, ServiceDatabaseOptions } from '@paykit/persistence';
import { BeneficialOwnersModule } from './beneficial-owners/beneficial-owners.module';
import { BeneficialOwnerEntity } from './beneficial-owners/entities/beneficial-owner.entity';
import { BulkImportModule } from './bulk-import/bulk-import.module';
import { BulkImportJobEntity } from './bulk-import/entities/bulk-import-job.entity';
import { ContactVerificationModule } from './contact-verification/contact-verification.module';
import { ContactCodeEntity } from './contact-verification/entities/contact-code.entity';
import { CustomersModule } from './customers/customers.module';
import { CustomerEntity } from './customers/entities/customer.entity';
import { DocumentsModule } from './documents/documents.module';
import { DocumentEntity } from './documents/entities/document.entity';
import { KycLinkEntity } from './kyc-links/entities/kyc-link.entity';
import { KycLinksModule } from './kyc-links/kyc-links.module';
import { CreateCustomers1732300000000 } from './migrations/1732300000000-CreateCustomers';
import { CustomerOnboarding1732400000000 } from './migrations/1732400000000-CustomerOnboarding';
import { PlatformEmbeddedWallets1732500000000 } from './migrations/1732500000000-PlatformEmbeddedWallets';
import { CustomerReferenceFields1732600000000 } from './migrations/1732600000000-CustomerReferenceFields';
import { CustomerProvisioning1732700000000 } from './migrations/1732700000000-CustomerProvisioning';
import { SandboxProfile1732800000000 } from './migrations/1732800000000-SandboxProfile';
import { PlatformConfigEntity } from './platform-config/entities/platform-config.entity';
import { PlatformConfigModule } from './platform-config/platform-config.module';
import { ProvisioningModule } from './provisioning/provisioning.module';
import { VerificationEntity } from './verification/entities/verification.entity';
import { VerificationsModule } from './verification/verifications.module';

/** The customers service's database: its entities and migrations (repository specs migrate a PGlite with them too). */
export const CUSTOMERS_DATABASE: ServiceDatabaseOptions = {
  service: 'customers',
  entities: [CustomerEntity, PlatformConfigEntity, VerificationEntity, ContactCodeEntity, KycLinkEntity, BeneficialOwnerEntity, DocumentEntity, BulkImportJobEntity],
  migrations: [
    CreateCustomers1732300000000,
    CustomerOnboarding1732400000000,
    PlatformEmbeddedWallets1732500000000,
    CustomerReferenceFields1732600000000,
    CustomerProvisioning1732700000000,
    SandboxProfile1732800000000,
  ],
};

/** The customers bounded context: customers, onboarding and the platform's onboarding config. */
@Module({
  imports: [
    PersistenceModule.forService(CUSTOMERS_DATABASE),
    PlatformConfigModule,
    CustomersModule,
    VerificationsModule,
    ContactVerificationModule,
    KycLinksModule,
    BeneficialOwnersModule,
    DocumentsModule,
    BulkImportModule,
    ProvisioningModule,
  ],
})
export class CustomersAppModule {}
