import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Page, REQUEST_LOG_ID_TYPE, RequestLogEntry } from '@paykit/contracts';
import { decodeCursor, idCursor, pageLimit, preparedStatement, toPage } from '@paykit/persistence';
import { RequestLogEntryEntity } from './entities/request-log-entry.entity';

const CURSOR = idCursor(REQUEST_LOG_ID_TYPE);

interface RequestLogRow {
  id: string;
  method: string;
  route: string | null;
  path: string;
  status: number;
  errorCode: string | null;
  durationMs: number;
  requestId: string;
  createdAt: Date;
}

/** Bounds of a platform's request log: whichever cuts first. */
export interface RequestLogRetention {
  rows: number;
  days: number;
}

@Injectable()
export class RequestLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Many rows in one statement (one round trip and one commit per flush). */
  async insertMany(rows: RequestLogEntryEntity[]): Promise<void> {
    await this.dataSource.query(
      preparedStatement(`INSERT INTO sandbox_request_log (id, platform_id, method, route, path, status, error_code, duration_ms, request_id, created_at)
       SELECT id, platform_id, method, route, path, status, error_code, duration_ms, request_id, created_at
         FROM jsonb_to_recordset($1::jsonb) AS t(id text, platform_id text, method text, route text, path text, status integer, error_code text, duration_ms integer, request_id text, created_at timestamptz)`),
      [
        JSON.stringify(
          rows.map((row) => ({
            id: row.id,
            platform_id: row.platformId,
            method: row.method,
            route: row.route,
            path: row.path,
            status: row.status,
            error_code: row.errorCode,
            duration_ms: row.durationMs,
            request_id: row.requestId,
            created_at: row.createdAt.toISOString(),
          })),
        ),
      ],
    );
  }

  async list(platformId: string, request: { limit?: number; cursor?: string }): Promise<Page<RequestLogEntry>> {
    const limit = pageLimit(request.limit);
    const before = decodeCursor(request.cursor, CURSOR);
    const rows = await this.dataSource.query<RequestLogRow[]>(
      `SELECT id, method, route, path, status, error_code AS "errorCode", duration_ms AS "durationMs", request_id AS "requestId", created_at AS "createdAt"
         FROM sandbox_request_log
        WHERE platform_id = $1 AND ($2::text IS NULL OR id < $2)
        ORDER BY id DESC LIMIT $3`,
      [platformId, before ?? null, limit + 1],
    );
    return toPage(rows, limit, toEntry, CURSOR);
  }

  /** Keeps the newest `retention.rows` rows of the platform, none older than `retention.days`. */
  async prune(manager: EntityManager, platformId: string, retention: RequestLogRetention, now: Date): Promise<void> {
    await manager.query(
      `DELETE FROM sandbox_request_log
        WHERE platform_id = $1
          AND (created_at < $2
               OR id <= (SELECT id FROM sandbox_request_log WHERE platform_id = $1 ORDER BY id DESC OFFSET $3 LIMIT 1))`,
      [platformId, new Date(now.getTime() - retention.days * 86_400_000), retention.rows],
    );
  }
}

function toEntry(row: RequestLogRow): RequestLogEntry {
  return {
    id: row.id,
    method: row.method,
    ...(row.route === null ? {} : { route: row.route }),
    path: row.path,
    status: row.status,
    ...(row.errorCode === null ? {} : { errorCode: row.errorCode }),
    durationMs: row.durationMs,
    requestId: row.requestId,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
