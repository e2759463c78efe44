import { forwardRef, Module } from '@nestjs/common';
import { ContactVerificationModule } from '../contact-verification/contact-verification.module';
import { PlatformConfigModule } from '../platform-config/platform-config.module';
import { CustomersHandlers } from './customers.handlers';
import { CustomersRepository } from './customers.repository';
import { CustomersService } from './customers.service';

@Module({
  // forwardRef: a changed email or phone drops its pending contact code, and contact verification updates customers.
  imports: [PlatformConfigModule, forwardRef(() => ContactVerificationModule)],
  controllers: [CustomersHandlers],
  providers: [CustomersService, CustomersRepository],
  exports: [CustomersService, CustomersRepository],
})
export class CustomersModule {}
