import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { canonicalRequestDigest, REQUEST_ID_HEADER, SignedRetryInput, SignedRetryOutcome, WALLET_SIGNATURE_HEADER } from '@paykit/contracts';
import { basePath, GatewayConfig } from '../config/gateway-config';
import { GATEWAY_CONFIG } from './tokens';

/** The request of a signed action, once SignedActionInterceptor has read what binds its challenge. */
export interface SignedActionRequest extends FastifyRequest {
  signedRetry?: SignedRetryInput;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The gateway's whole part in a signed action (docs/architecture.md, "Signed retry"); the owning
 * service checks and applies it. Before the route: what binds a challenge, for `@SignedRetry()`
 * to pass on (the digest of the canonical request: method, path under `{base_url}`, body; and the
 * two headers as sent). After: the service's SignedRetryOutcome as HTTP, 202 with the challenge
 * or the result with the route's status (a 204 route answers no body).
 */
@Injectable()
export class SignedActionInterceptor implements NestInterceptor<SignedRetryOutcome<unknown>, unknown> {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  intercept(context: ExecutionContext, next: CallHandler<SignedRetryOutcome<unknown>>): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<SignedActionRequest>();
    const reply = http.getResponse<FastifyReply>();
    request.signedRetry = this.input(request);
    return next.handle().pipe(
      map((outcome) => {
        if ('challenge' in outcome) {
          void reply.status(202);
          return outcome.challenge;
        }
        return reply.statusCode === 204 ? undefined : outcome.result;
      }),
    );
  }

  private input(request: FastifyRequest): SignedRetryInput {
    const prefix = basePath(this.config);
    const path = request.url.split('?')[0];
    const relative = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    const signature = header(request, WALLET_SIGNATURE_HEADER);
    const requestId = header(request, REQUEST_ID_HEADER);
    return {
      requestDigest: canonicalRequestDigest(request.method, relative, request.body ?? null),
      ...(signature !== undefined ? { signature } : {}),
      ...(requestId !== undefined ? { requestId } : {}),
    };
  }
}
