import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

/** Every service with a database keeps each platform's sandbox clock offset and answers on `<service>.clock.advance`. */
export type ClockAdvanceSubject = `${string}.clock.advance`;

/** Longest single advance of a sandbox test clock: one year. */
export const MAX_CLOCK_ADVANCE_SECONDS = 31_536_000;

/**
 * The platform's new total offset (seconds ahead of real time), fanned out by the gateway. Absolute,
 * not a step: a service keeps the larger of its offset and this one, so a repeated or late
 * message changes nothing and time only moves forward.
 */
export class AdvancePlatformClockRequest {
  @IsInt()
  @Min(0)
  offsetSeconds!: number;
}

export interface PlatformClockReply {
  offsetSeconds: number;
}

export type ClockContract = { [S in ClockAdvanceSubject]: { request: AdvancePlatformClockRequest; reply: PlatformClockReply } };

/** Body of `POST /sandbox/clock/advance`. */
export class AdvanceSandboxClockBody {
  @ApiProperty({
    description: "How far to move the platform's sandbox time forward, in seconds (1 to 31536000, one year)",
    type: 'integer',
    example: 360,
    minimum: 1,
    maximum: MAX_CLOCK_ADVANCE_SECONDS,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_CLOCK_ADVANCE_SECONDS)
  seconds!: number;
}

/** A platform's sandbox clock, as `GET /sandbox/clock` and `POST /sandbox/clock/advance` answer. */
export interface SandboxClock {
  /** The platform's sandbox time (ISO-8601, UTC). */
  now: string;
  /** How far the platform's time has been advanced in total, in seconds. */
  advancedSeconds: number;
}
