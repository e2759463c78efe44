import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Deployment and token environments. Wire values: frozen. */
export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * Who is calling, resolved by the gateway from the credentials and passed with every message.
 * Services scope every query by `platformId`.
 */
export interface CallerContext {
  platformId: string;
  environment: Environment;
  /** Follows one request across services in the logs. */
  requestId: string;
  /** Set when the caller authenticated with AgentAuth. */
  agent?: { agentId: string; customerId: string };
}

/** Every request message: the caller's context plus the contract's payload. */
export interface MessageEnvelope<P> {
  ctx: CallerContext;
  payload: P;
  /** The version of the subject's contract the payload was written at; absent before versions were stamped (version 1). */
  schemaVersion?: number;
}

/** The schema version every contract starts at; a contract's current one is `contractVersion(subject)`. */
export const EVENT_SCHEMA_VERSION = 1;

/**
 * A domain event as written to a service's outbox and published on the bus.
 * `webhookType` is the spec's event type (e.g. `CUSTOMER.KYC_APPROVED`) when the event is
 * announced to the platform; `data` is then the resource exactly as its GET returns it.
 */
export interface DomainEvent<D = unknown> {
  eventId: string;
  subject: string;
  occurredAt: string;
  platformId: string;
  schemaVersion: number;
  resourceId: string;
  webhookType?: string;
  data: D;
}

/** Cursor pagination (INTEROP.md "Lists"). */
export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount?: number;
}

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** The cursor-pagination query every list request extends (INTEROP.md "Lists"). */
export abstract class PageQuery {
  @ApiPropertyOptional({ description: 'Page size, 1 to 100 (default 20)', example: DEFAULT_PAGE_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

/** `{base_url}` ends in this version segment. */
export const API_VERSION = '2025-10-13';

/** Applies property decorators as if written stacked in this order (the last one runs first). */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

/** An optional ISO 8601 instant (list filters such as createdAfter). */
export function OptionalInstant(description: string, example: string): PropertyDecorator {
  return stacked(ApiPropertyOptional({ description, example }), IsOptional(), IsISO8601({ strict: true }));
}
