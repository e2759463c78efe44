import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SERVICE_NAMES, healthSubject } from '@paykit/runtime';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Public } from '../auth/public.decorator';

const READINESS_CONTEXT = { platformId: 'Platform:health', environment: 'sandbox' as const, requestId: 'readiness' };

/** Liveness (`/health`) and readiness (`/ready`: every service answers over the transport). */
@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('health')
  health(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HttpCode(200)
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ status: string; services: Record<string, string> }> {
    const services: Record<string, string> = { gateway: 'ok' };
    await Promise.all(
      SERVICE_NAMES.filter((name) => name !== 'gateway').map(async (name) => {
        try {
          await this.services.request(healthSubject(name), {}, READINESS_CONTEXT);
          services[name] = 'ok';
        } catch (error) {
          services[name] = (error as Error).message;
        }
      }),
    );
    const ready = Object.values(services).every((status) => status === 'ok');
    void reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'unavailable', services };
  }
}
