import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/**
 * What a client POSTs to the MCP endpoint: one JSON-RPC 2.0 request or notification. Checked by
 * the gateway's one validation path before the SDK sees it, so a malformed message is a 400 in
 * the error envelope like any other bad body.
 */
export class McpMessageBody {
  @ApiProperty({ description: 'Always `2.0`', enum: ['2.0'], example: '2.0' })
  @IsIn(['2.0'])
  jsonrpc!: '2.0';

  @ApiProperty({ description: 'The MCP method, e.g. `initialize`, `tools/list`, `tools/call`, `notifications/initialized`', example: 'tools/list' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  method!: string;

  @ApiPropertyOptional({ description: 'Request id (absent for a notification)', oneOf: [{ type: 'string' }, { type: 'integer' }], example: 1 })
  @IsOptional()
  @ValidateIf((body: McpMessageBody) => typeof body.id !== 'number')
  @IsString()
  @MaxLength(128)
  id?: string | number;

  @ApiPropertyOptional({ description: "The method's parameters", type: 'object', additionalProperties: true, example: {} })
  @IsOptional()
  @IsObject()
  params?: Record<string, unknown>;
}
