import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Page, REQUEST_LOG_ID_EXAMPLE, RequestLogEntry } from '@paykit/contracts';

export class RequestLogEntryDto implements RequestLogEntry {
  @ApiProperty({ example: REQUEST_LOG_ID_EXAMPLE }) id!: string;
  @ApiProperty({ example: 'POST' }) method!: string;
  @ApiPropertyOptional({ description: 'The route as declared (path parameters as `:name`)', example: '/2025-10-13/customers/:customerId' }) route?: string;
  @ApiProperty({ description: 'The path requested, without the query string', example: '/2025-10-13/customers/Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  path!: string;
  @ApiProperty({ description: 'The HTTP status answered', type: 'integer', example: 200 }) status!: number;
  @ApiPropertyOptional({ description: "The error envelope's `code`, when the answer was an error", example: 'INVALID_INPUT' }) errorCode?: string;
  @ApiProperty({ description: 'Time to answer, in milliseconds', type: 'integer', example: 12 }) durationMs!: number;
  @ApiProperty({ description: 'The `x-request-id` of the answer (it also appears in every service log line of the request)', example: '0b5f4f36-8c1e-4a55-9d52-0d7c1f0e6a3b' })
  requestId!: string;
  @ApiProperty({ description: 'When the request was answered', example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
}

export class RequestLogPageDto implements Page<RequestLogEntry> {
  @ApiProperty({ type: [RequestLogEntryDto], description: 'Newest first' }) data!: RequestLogEntryDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page', example: 'ZDQy' }) nextCursor?: string;
}
