import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * Paths that may carry secrets; pino replaces them before anything is written.
 * Callers still must not log secrets on purpose — this is the safety net.
 */
const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'secret',
  '*.secret',
  'tokenSecret',
  '*.tokenSecret',
  'password',
  '*.password',
  'otpCode',
  '*.otpCode',
  'privateKey',
  '*.privateKey',
  'accountNumber',
  '*.accountNumber',
  'iban',
  '*.iban',
  'threeDSecurePassword',
  '*.threeDSecurePassword',
  'pan',
  '*.pan',
  'cvv',
  '*.cvv',
  'panEmbedUrl',
  '*.panEmbedUrl',
  '["service-wallet-signature"]',
  '*["service-wallet-signature"]',
];

let root: Logger | undefined;

export interface LoggerOptions {
  level: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

export function createRootLogger(options: LoggerOptions): Logger {
  root = pino(
    {
      level: options.level,
      base: { pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
  return root;
}

export function rootLogger(): Logger {
  return root ?? createRootLogger({ level: process.env.LOG_LEVEL ?? 'info' });
}

/** Nest's logger interface over pino, so framework and application lines share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  /** Nest's routine boot chatter ("dependencies initialized", routes mapped) is debug detail. */
  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
