import { Module } from '@nestjs/common';
import { PlatformConfigHandlers } from './platform-config.handlers';
import { PlatformConfigRepository } from './platform-config.repository';
import { PlatformConfigService } from './platform-config.service';

@Module({
  controllers: [PlatformConfigHandlers],
  providers: [PlatformConfigService, PlatformConfigRepository],
  exports: [PlatformConfigService],
})
export class PlatformConfigModule {}
