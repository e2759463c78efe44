import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { BeneficialOwnersHandlers } from './beneficial-owners.handlers';
import { BeneficialOwnersService } from './beneficial-owners.service';

@Module({
  imports: [CustomersModule],
  controllers: [BeneficialOwnersHandlers],
  providers: [BeneficialOwnersService],
})
export class BeneficialOwnersModule {}
