import { Injectable, Logger } from '@nestjs/common';

export const OTP_SENDER = Symbol('OTP_SENDER');

export type OtpChannel = 'EMAIL' | 'SMS';

/** Delivers one-time codes (outside the sandbox). Implementations must never log the code. */
export interface OtpSender {
  send(channel: OtpChannel, destination: string, code: string): Promise<void>;
}

/** Hides most of an address or number, so logs can say where a code went without saying who. */
export function maskDestination(destination: string): string {
  // Code points, not UTF-16 units: half a surrogate pair is not text a log or a JSON column takes.
  const characters = Array.from(destination);
  const at = characters.indexOf('@');
  if (at > 0) return `${characters[0]}***${characters.slice(at).join('')}`;
  return characters.length > 4 ? `***${characters.slice(-2).join('')}` : '***';
}

/**
 * The default sender: records that a code was due, without it. A deployment plugs in its email
 * and SMS provider by binding OTP_SENDER to another implementation.
 */
@Injectable()
export class LoggingOtpSender implements OtpSender {
  private readonly logger = new Logger('OtpSender');

  async send(channel: OtpChannel, destination: string, _code: string): Promise<void> {
    this.logger.log(`One-time code issued by ${channel} to ${maskDestination(destination)} (no delivery provider configured)`);
  }
}
