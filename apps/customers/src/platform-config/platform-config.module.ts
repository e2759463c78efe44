import { Module } from '@nestjs/common';
import { PlatformConfigHandlers } from './platform-config.handlers';
import { PlatformConfigService } from './platform-config.service';

@Module({
  controllers: [PlatformConfigHandlers],
  providers: [PlatformConfigService],
  exports: [PlatformConfigService],
})
export class PlatformConfigModule {}
