import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { CustomersModule } from './customers/customers.module';
import { CustomerEntity } from './customers/entities/customer.entity';
import { CreateCustomers1732300000000 } from './migrations/1732300000000-CreateCustomers';
import { PlatformConfigEntity } from './platform-config/entities/platform-config.entity';
import { PlatformConfigModule } from './platform-config/platform-config.module';

/** The customers bounded context: customers, onboarding and the platform's onboarding config. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'customers',
      entities: [CustomerEntity, PlatformConfigEntity],
      migrations: [CreateCustomers1732300000000],
    }),
    PlatformConfigModule,
    CustomersModule,
  ],
})
export class CustomersAppModule {}
