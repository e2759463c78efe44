import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { API_VERSION } from '@paykit/contracts';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { Public } from '../auth/public.decorator';
import { GATEWAY_CONFIG } from './tokens';
import { CONSOLE_PATH } from './console-assets';
import { basePath, GatewayConfig } from '../config/gateway-config';

/** `GET /`: where things are, for a developer poking at the server. */
@ApiExcludeController()
@Public()
@Controller()
export class RootController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly gateway: GatewayConfig,
    @Inject(RUNTIME_CONFIG) private readonly runtime: RuntimeConfig,
  ) {}

  @Get()
  index(): Record<string, string> {
    return {
      name: 'paykit',
      version: API_VERSION,
      environment: this.runtime.deployment,
      baseUrl: basePath(this.gateway),
      docs: '/docs',
      openapi: '/openapi.json',
      ...(this.runtime.deployment === 'sandbox' ? { console: CONSOLE_PATH } : {}),
    };
  }
}
