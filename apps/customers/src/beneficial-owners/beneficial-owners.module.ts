import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { PlatformConfigModule } from '../platform-config/platform-config.module';
import { BeneficialOwnersHandlers } from './beneficial-owners.handlers';
import { BeneficialOwnersRepository } from './beneficial-owners.repository';
import { BeneficialOwnersService } from './beneficial-owners.service';

@Module({
  imports: [CustomersModule, PlatformConfigModule],
  controllers: [BeneficialOwnersHandlers],
  providers: [BeneficialOwnersService, BeneficialOwnersRepository],
  exports: [BeneficialOwnersRepository],
})
export class BeneficialOwnersModule {}
