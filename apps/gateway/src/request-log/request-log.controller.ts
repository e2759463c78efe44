import { Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallerContext, ListRequestLogRequest, Page, RequestLogEntry } from '@paykit/contracts';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { RequestLogRepository } from './request-log.repository';
import { RequestLogPageDto } from './request-log.response';

/** The path of the request log's own route: reading the log is not recorded in it. */
export const REQUEST_LOG_ROUTE = 'sandbox/request-log';

@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller(REQUEST_LOG_ROUTE)
export class RequestLogController {
  constructor(private readonly repository: RequestLogRepository) {}

  @Get()
  @ApiOperation({
    summary: "List the platform's latest requests",
    description:
      'Every request the sandbox platform made (except reads of this log), newest first, cursor-paginated: method, route, path (never the query string), ' +
      'status, error code, duration and request id; never bodies or headers. Recorded off the request path, so a request shows up within about 100 ms. ' +
      'Keeps the newest 10,000 requests of the platform, none older than 7 days (`REQUEST_LOG_RETENTION_ROWS`, `REQUEST_LOG_RETENTION_DAYS`). ' +
      'Sandbox only, Basic authentication only.',
  })
  @ApiOkResponse({ type: RequestLogPageDto })
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListRequestLogRequest, @Caller() caller: CallerContext): Promise<Page<RequestLogEntry>> {
    return this.repository.list(caller.platformId, { limit: query.limit, cursor: query.cursor });
  }
}
