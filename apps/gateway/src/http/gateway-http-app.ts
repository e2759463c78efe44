import { randomUUID } from 'node:crypto';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, getSchemaPath, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION, Environment } from '@paykit/contracts';
import { PinoNestLogger, rootLogger, ServiceRuntime, ServiceRuntimeModule } from '@paykit/runtime';
import { GatewayAppModule } from '../app.module';
import { REVEAL_PAGE_ROUTE } from '../cards/card-reveal-page.controller';
import { basePath, GatewayConfig } from '../config/gateway-config';
import { ErrorResponseDto } from '../errors/error-response.dto';
import { ErroredRequest } from '../errors/http-error.filter';
import { AuthenticatedRequest } from '../auth/caller.decorator';
import { REQUEST_LOG_ROUTE } from '../request-log/request-log.controller';
import { RequestLogRecorder } from '../request-log/request-log.recorder';
import { serveApiDocs } from './api-docs';
import { CONSOLE_PATH, findConsoleAssets } from './console-assets';
import { acceptEarlierVersionFields } from './earlier-versions';
import { clientError, frameworkError, MAX_PATH_SEGMENT_LENGTH, refuseUnacceptableBodies, refuseUnreadableBodies } from './edge-errors';
import { loggableUrl } from './loggable-url';
import { measureRequests, traceRequests } from './request-telemetry';
import { GATEWAY_CONFIG } from './tokens';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

@Global()
@Module({})
class GatewayConfigModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return { module: GatewayConfigModule, providers: [{ provide: GATEWAY_CONFIG, useValue: config }], exports: [GATEWAY_CONFIG] };
  }
}

export function buildOpenApiDocument(app: NestFastifyApplication, config: GatewayConfig, deployment: Environment): OpenAPIObject {
  const document = new DocumentBuilder()
    .setTitle('Paykit payments API')
    .setDescription(
      'Cards, embedded wallet authentication, customers and onboarding, external accounts, internal accounts and money movement, ' +
        "webhooks, and a deterministic sandbox. Amounts are integers in the currency's smallest unit. " +
        'Errors use the envelope `{status, code, message, details}`.',
    )
    .setVersion(API_VERSION)
    .addServer(basePath(config))
    .addBasicAuth({ type: 'http', scheme: 'basic', description: '`<api token id>:<api client secret>`' }, 'BasicAuth')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Agent `accessToken` from device code redemption' }, 'AgentAuth')
    .addSecurityRequirements('BasicAuth')
    .build();
  const served = documentGatewayAnswers(SwaggerModule.createDocument(app, document, { ignoreGlobalPrefix: true }));
  return deployment === 'production' ? withoutSandboxPaths(served) : served;
}

const SANDBOX_PATH = /^\/sandbox(\/|$)/;

/**
 * A production deployment has no `/sandbox/*` routes (they answer 404, AuthGuard), so its document
 * lists none, nor the tags only they used.
 */
function withoutSandboxPaths(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => !SANDBOX_PATH.test(path)));
  const tagsOf = (items: OpenAPIObject['paths']) => new Set(Object.values(items).flatMap((item) => OPERATION_METHODS.flatMap((method) => item[method]?.tags ?? [])));
  const kept = tagsOf(paths);
  const dropped = [...tagsOf(document.paths)].filter((tag) => !kept.has(tag));
  const tags = document.tags?.filter((tag) => !dropped.includes(tag.name));
  return { ...document, paths, ...(tags ? { tags } : {}) };
}

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The answers the gateway itself can give on any route, whatever the route's own decorators say:
 * the owning service unreachable (503) or too slow (504), and for routes that take a body, one
 * over the size limit (413) or of a media type the route does not read (415); and on every route
 * behind credentials, an API token without the permission the route needs (403) and the rate
 * limits (429 with `Retry-After`).
 */
function documentGatewayAnswers(document: OpenAPIObject): OpenAPIObject {
  const envelope = { $ref: getSchemaPath(ErrorResponseDto) };
  const answer = (description: string) => ({ description, content: { 'application/json': { schema: envelope } } });
  for (const item of Object.values(document.paths)) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation.responses['503'] ??= answer('The service that owns the resource is unavailable (`SERVICE_UNAVAILABLE`); retry later');
      operation.responses['504'] ??= answer('The service that owns the resource did not answer in time (`SERVICE_TIMEOUT`)');
      if ((operation.security ?? document.security ?? []).length > 0) {
        operation.responses['403'] ??= answer('The API token lacks the permission this operation needs (`FORBIDDEN`, `details.requiredPermission`)');
        // An operation with a 429 of its own (an OTP re-send) gains the header; the others, the whole answer.
        const tooMany = (operation.responses['429'] ??= answer(
          'Too many requests for this API token in the current window, or too many failed authentications for this token id or ' +
            'client address (`RATE_LIMITED`, `details.reason`); retry after `Retry-After` seconds',
        )) as { headers?: Record<string, unknown> };
        tooMany.headers = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } }, ...tooMany.headers };
      }
      if (operation.requestBody) {
        operation.responses['413'] ??= answer('The body is over the size limit (`PAYLOAD_TOO_LARGE`)');
        operation.responses['415'] ??= answer('The body is of a media type the operation does not take (`UNSUPPORTED_MEDIA_TYPE`)');
      }
    }
  }
  return document;
}

/**
 * The gateway's HTTP server (Fastify): every API route under `{prefix}/2025-10-13`, the error
 * envelope for every failure (including Fastify's own: bad JSON, oversized bodies, 404s),
 * request ids that follow a request across services, and the OpenAPI document.
 */
export async function createGatewayHttpApp(runtime: ServiceRuntime, config: GatewayConfig): Promise<NestFastifyApplication> {
  @Module({ imports: [ServiceRuntimeModule.forRoot(runtime), GatewayConfigModule.forRoot(config), GatewayAppModule] })
  class GatewayShellModule {}

  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Request logging is the gateway's own (pino, below); Fastify's would duplicate it.
    logger: false,
    // Failures before any route runs answer in the error envelope too (edge-errors.ts).
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH },
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    // The client address that failed authentications are counted by (TRUST_PROXY).
    trustProxy: config.trustProxy,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayShellModule, adapter, {
    logger: new PinoNestLogger(rootLogger().child({ service: 'gateway' })),
  });
  // The hosted KYC page is for customers' browsers: it lives outside the versioned API path.
  app.setGlobalPrefix(basePath(config).slice(1), { exclude: ['/', 'health', 'ready', 'kyc/:token', REVEAL_PAGE_ROUTE, 'end-user-terms/:version'] });
  // multipart/form-data (documents, bulk CSV): routes read the parts as streams with their own limits.
  await app.register(fastifyMultipart, { limits: { files: 1, fields: 20, parts: 25 } });

  // The sandbox console: static files (no credentials needed to load them; every action it takes
  // is an API call with the token the developer signs in with). Sandbox deployments only.
  const consoleAssets = runtime.config.deployment === 'sandbox' ? findConsoleAssets() : undefined;
  // Prefix without the slash: `/console` then redirects to `/console/`.
  if (consoleAssets) app.useStaticAssets({ root: consoleAssets, prefix: CONSOLE_PATH.slice(0, -1), redirect: true });

  const fastify = app.getHttpAdapter().getInstance();
  const requestLog = rootLogger().child({ service: 'gateway' });
  traceRequests(fastify);
  measureRequests(fastify);
  fastify.addHook('onRequest', refuseUnreadableBodies);
  fastify.addHook('preValidation', refuseUnacceptableBodies);
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('x-request-id', String(request.id));
    // Answered before its body was all read (a multipart route stopped at a limit): the unread rest
    // would sit in front of the next request on this connection, so the connection ends here.
    if (!request.raw.complete) void reply.header('connection', 'close');
  });
  const recorder = app.get(RequestLogRecorder);
  // A production deployment has no `/sandbox/*` path to read the log from: nothing to record.
  if (recorder.enabled && runtime.config.deployment === 'sandbox') {
    const ownRoute = `${basePath(config)}/${REQUEST_LOG_ROUTE}`;
    fastify.addHook('onResponse', async (request: FastifyRequest & AuthenticatedRequest & ErroredRequest, reply: FastifyReply) => {
      // Sandbox platforms' authenticated requests; reading the log is not an entry of it.
      const caller = request.caller;
      if (caller?.environment !== 'sandbox' || request.routeOptions.url === ownRoute) return;
      recorder.record({
        platformId: caller.platformId,
        method: request.method,
        route: request.routeOptions.url ?? null,
        // Never the query string (filters may carry account numbers); credential path segments masked.
        path: loggableUrl(request.url.split('?')[0]),
        status: reply.statusCode,
        errorCode: request.errorCode ?? null,
        durationMs: Math.round(reply.elapsedTime),
        requestId: String(request.id),
      });
    });
  }
  // Per-request lines are debug output: the hook costs nothing when they are off.
  if (requestLog.isLevelEnabled('debug')) {
    fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      requestLog.debug({ requestId: request.id, method: request.method, url: loggableUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  }

  const document = buildOpenApiDocument(app, config, runtime.config.deployment);
  // Fields of earlier versions of the API document: mapped or taken out after the raw body checks
  // above, before any route, pipe or interceptor reads the request.
  acceptEarlierVersionFields(fastify, document, basePath(config));
  serveApiDocs(app, document);
  app.enableShutdownHooks();
  return app;
}
