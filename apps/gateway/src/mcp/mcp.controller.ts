import { Body, Controller, Delete, Get, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiAcceptedResponse, ApiBasicAuth, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@paykit/errors';
import { BasicAuthOnly } from '../auth/public.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { basePath, GatewayConfig } from '../config/gateway-config';
import { GATEWAY_CONFIG } from '../http/tokens';
import { McpMessageBody } from './mcp-message.dto';
import { createPaykitMcpServer, OpenApiDocument, PaykitApi } from './paykit-mcp-server';

/** Where MCP clients connect: `{base_url}/sandbox/mcp` (Streamable HTTP, BasicAuth of a sandbox token). */
export const MCP_ROUTE = 'sandbox/mcp';

/**
 * The MCP server over Streamable HTTP, stateless: each POST is one JSON-RPC exchange answered as
 * JSON, by a server made for it that acts as the caller's platform (the AuthGuard already
 * authenticated it; under `/sandbox/`, so production tokens get 403 and a production deployment
 * 404). Its tools call the API in process through the whole gateway with the caller's own
 * Authorization header, as any client's requests.
 */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@Controller(MCP_ROUTE)
export class McpController {
  private readonly logger = new Logger(McpController.name);
  private readonly base: string;

  constructor(
    private readonly adapter: HttpAdapterHost,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.base = basePath(config);
  }

  @Post()
  @ApiOperation({
    summary: 'MCP server (Streamable HTTP)',
    description:
      'The Model Context Protocol endpoint for AI coding tools: tools `search`, `describe_operation`, `execute`, `run_simulator`, `advance_clock` and ' +
      '`list_webhook_deliveries`, acting as the platform of the Basic credentials. Stateless: POST each JSON-RPC message (Accept: application/json, ' +
      'text/event-stream); answered as JSON whatever the Accept header, 202 for notifications; a message that is not a JSON-RPC request or notification ' +
      'is a 400 in the error envelope. Client configuration: docs/sandbox-tools.md. Sandbox only, Basic authentication only.',
  })
  @ApiOkResponse({ description: 'The JSON-RPC answer', schema: { type: 'object', example: { jsonrpc: '2.0', id: 1, result: { tools: [] } } } })
  @ApiAcceptedResponse({ description: 'A notification was received (no body)' })
  @ApiErrors(400, 401, 403)
  async exchange(@Body() _validated: McpMessageBody, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // Answers are always JSON here (never a stream), so any client may read them: the SDK asks for both.
    request.raw.headers.accept = 'application/json, text/event-stream';
    const server = createPaykitMcpServer(this.inProcessApi(request.headers.authorization ?? ''));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The SDK writes the answer itself.
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      // The message as sent (validated above): the SDK tells requests from notifications by the keys present.
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      this.logger.warn(`MCP exchange failed: ${(error as Error).message}`);
      if (!reply.raw.headersSent)
        reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
    }
  }

  /** Stateless: no server-sent event stream to open, no session to end. */
  @Get()
  @ApiExcludeEndpoint()
  stream(): never {
    throw new ServiceError('METHOD_NOT_ALLOWED', 'This MCP server is stateless: POST each JSON-RPC message');
  }

  @Delete()
  @ApiExcludeEndpoint()
  endSession(): never {
    throw new ServiceError('METHOD_NOT_ALLOWED', 'This MCP server keeps no sessions');
  }

  private inProcessApi(authorization: string): PaykitApi {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    return {
      call: async ({ method, path, query, body, headers }) => {
        const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
        const answer = await fastify.inject({
          method: method as 'GET',
          url: `${this.base}${path}${search}`,
          headers: { authorization, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        });
        return { status: answer.statusCode, body: answer.body === '' ? undefined : tryJson(answer.body) };
      },
      document: async () => (await fastify.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>(),
    };
  }
}

function tryJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
