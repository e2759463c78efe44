import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { redactLogLine } from './redaction';

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
      // Every line, whoever writes it (the application, Nest, the database drivers), passes the
      // one redaction list on its way out: secrets and personal data by key and by shape.
      hooks: { streamWrite: redactLogLine },
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
