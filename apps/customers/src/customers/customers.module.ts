import { Module } from '@nestjs/common';
import { ContactCodesModule } from '../contact-verification/contact-codes.module';
import { PlatformConfigModule } from '../platform-config/platform-config.module';
import { CustomersHandlers } from './customers.handlers';
import { CustomersRepository } from './customers.repository';
import { CustomersService } from './customers.service';

@Module({
  // Contact codes only (not contact verification, which uses customers): a changed email or phone drops its pending code.
  imports: [PlatformConfigModule, ContactCodesModule],
  controllers: [CustomersHandlers],
  providers: [CustomersService, CustomersRepository],
  exports: [CustomersService, CustomersRepository],
})
export class CustomersModule {}
