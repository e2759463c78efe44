import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AdvanceSandboxClockBody, CallerContext, SandboxClock } from '@paykit/contracts';
import { Clock, clockAdvanceSubject } from '@paykit/persistence';
import { SERVICE_NAMES } from '@paykit/runtime';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { BasicAuthOnly } from '../auth/public.decorator';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';

class SandboxClockDto implements SandboxClock {
  @ApiProperty({ description: "The platform's sandbox time (ISO-8601, UTC): real time plus `advancedSeconds`", format: 'date-time', example: '2026-11-25T16:06:00.000Z' })
  now!: string;

  @ApiProperty({ description: "How far the platform's sandbox time has been advanced in total, in seconds", type: 'integer', minimum: 0, example: 360 })
  advancedSeconds!: number;
}

/** The services that keep platform clocks (every one but the gateway, which starts each advance). */
const CLOCKED_SERVICES = SERVICE_NAMES.filter((service) => service !== 'gateway');

/**
 * A platform's sandbox test clock. The gateway's own `platform_clock` row is the platform's total;
 * each advance adds to it atomically and then hands the new total to every service, which keeps
 * the larger of its own and that one and runs what fell due before answering.
 */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@Controller('sandbox/clock')
export class SandboxClockController {
  constructor(
    private readonly clock: Clock,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  @Get()
  @ApiOperation({
    summary: "Read the platform's sandbox clock",
    description: "The platform's sandbox time and how far it has been advanced. Sandbox only, Basic authentication only (VIEW permission).",
  })
  @ApiOkResponse({ type: SandboxClockDto })
  @ApiErrors(401, 403, 404)
  async read(@Caller() caller: CallerContext): Promise<SandboxClock> {
    return clockAt(await this.clock.storedOffsetSeconds(caller.platformId));
  }

  @Post('advance')
  @HttpCode(200)
  @ApiOperation({
    summary: "Advance the platform's sandbox clock",
    description:
      "Moves the platform's sandbox time forward by `seconds` (time never moves back). Every delayed sandbox outcome of the platform that falls due " +
      'within it (card issuance and descriptor `005`, external account name verification `104`, transfer and quote suffixes, webhook retries, ' +
      'OTP, signed-retry and KYC link expiry) has started, in due order, when this answers; their webhooks may still be on their way, as with real time. ' +
      'Other platforms are not affected. Sandbox only, Basic authentication only (TRANSACT permission).',
  })
  @ApiOkResponse({ type: SandboxClockDto })
  @ApiErrors(400, 401, 403, 404)
  async advance(@Body() body: AdvanceSandboxClockBody, @Caller() caller: CallerContext): Promise<SandboxClock> {
    const offsetSeconds = await this.clock.advanceBy(caller.platformId, body.seconds);
    // Absolute totals: a retried or late fan-out changes nothing where the clock is already there.
    await Promise.all(CLOCKED_SERVICES.map((service) => this.services.request(clockAdvanceSubject(service), { offsetSeconds }, caller)));
    return clockAt(offsetSeconds);
  }
}

function clockAt(offsetSeconds: number): SandboxClock {
  return { now: new Date(Clock.real().getTime() + offsetSeconds * 1000).toISOString(), advancedSeconds: offsetSeconds };
}
