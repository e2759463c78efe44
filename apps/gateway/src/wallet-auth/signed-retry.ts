import { applyDecorators, Inject, Injectable } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CallerContext,
  canonicalRequestDigest,
  REQUEST_ID_HEADER,
  SignedOperation,
  SignedRetryChallenge,
  SignedRetryInput,
  SignedRetryOutcome,
  SignedRetryProof,
  WALLET_AUTH_SUBJECTS,
  WALLET_SIGNATURE_HEADER,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { basePath, GatewayConfig } from '../config/gateway-config';
import { GATEWAY_CONFIG } from '../http/tokens';
import { SignedRetryChallengeDto } from './dto/wallet-auth.response';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The gateway's side of the one signed-retry mechanism (docs/architecture.md, "Signed retry").
 * Any controller with a signed action uses it:
 *
 * - `input(request)` turns the HTTP request into what binds a challenge: the digest of the canonical
 *   request (method, path under `{base_url}`, body) and the two headers as sent. Services that run
 *   the signed action themselves (wallet-auth) take this as `signedRetry` in their message.
 * - `run(...)` is the two-call pattern for actions another service applies: without signature
 *   headers it issues a challenge and answers 202; with them it has wallet-auth consume the
 *   challenge (401s with the spec's codes) and only then applies the change.
 * - `respond(...)` turns a service's SignedRetryOutcome into the HTTP answer (202 or the result).
 */
@Injectable()
export class SignedRetryGateway {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  input(request: FastifyRequest): SignedRetryInput {
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

  respond<T>(outcome: SignedRetryOutcome<T>, reply: FastifyReply): T | SignedRetryChallenge {
    if ('challenge' in outcome) {
      void reply.status(202);
      return outcome.challenge;
    }
    return outcome.result;
  }

  /**
   * Validate first (the caller resolves the account and throws its 4xx before this), then either
   * answer the 202 challenge or consume the signed retry and apply. The apply runs once per
   * request id: a failed apply leaves the request id spent and the client starts over.
   */
  async run<T>(
    http: { request: FastifyRequest; reply: FastifyReply },
    caller: CallerContext,
    action: { accountId: string; operation: SignedOperation; apply: (proof: SignedRetryProof) => Promise<T> },
  ): Promise<T | SignedRetryChallenge> {
    const input = this.input(http.request);
    const binding = { accountId: action.accountId, operation: action.operation, requestDigest: input.requestDigest };
    if (input.signature === undefined && input.requestId === undefined) {
      const challenge = await this.services.request(WALLET_AUTH_SUBJECTS.issueSignedRetry, binding, caller);
      void http.reply.status(202);
      return challenge;
    }
    const proof = await this.services.request(WALLET_AUTH_SUBJECTS.consumeSignedRetry, { ...binding, signature: input.signature, requestId: input.requestId }, caller);
    return action.apply(proof);
  }
}

/** OpenAPI for a signed action: the two headers and the 202 challenge answer. */
export function ApiSignedRetry(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'Service-Wallet-Signature',
      required: false,
      description: 'On the signed retry: the API-key stamp (base64url JSON {publicKey, scheme, signature}) over `payloadToSign`, made with a session key of the account',
    }),
    ApiHeader({ name: 'Request-Id', required: false, description: 'On the signed retry: the `requestId` of the 202 answer; single use' }),
    ApiAcceptedResponse({ type: SignedRetryChallengeDto, description: 'First call: sign `payloadToSign` and retry the same request with both headers before `expiresAt`' }),
  );
}
