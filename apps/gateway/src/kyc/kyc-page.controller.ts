import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallerContext, CompleteKycLinkRequest, CUSTOMERS_SUBJECTS, EDD_FIELDS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Public } from '../auth/public.decorator';
import { completedPage, unusableLinkPage, verificationPage } from './kyc-page.html';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The token is in the URL: keep it out of Referer headers.
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-frame-options': 'DENY',
};

/**
 * The hosted KYC page, `GET /kyc/{token}` (outside the versioned base path: it is for the
 * customer's browser, not for API clients). The link's token is the only credential; the
 * customers service resolves the platform from it.
 */
@ApiExcludeController()
@Public()
@Controller('kyc')
export class KycPageController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const view = await this.services.request(CUSTOMERS_SUBJECTS.openKycLink, { token }, this.context(request));
      if (view.state !== 'ACTIVE') return send(reply, 410, unusableLinkPage(view.state));
      return send(reply, 200, verificationPage(token, view));
    } catch (error) {
      return this.sendFailure(reply, error);
    }
  }

  @Post(':token')
  async complete(@Param('token') token: string, @Body() form: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const ctx = this.context(request);
    try {
      const completion = await this.services.request(CUSTOMERS_SUBJECTS.completeKycLink, eddAnswers(token, form ?? {}), ctx);
      if (completion.verification.verificationStatus === 'RESOLVE_ERRORS') {
        const view = await this.services.request(CUSTOMERS_SUBJECTS.openKycLink, { token }, ctx);
        return send(reply, 422, verificationPage(token, view, completion.verification.errors));
      }
      if (completion.redirectUri === undefined) return send(reply, 200, completedPage());
      void reply.status(303).header('cache-control', 'no-store').header('location', completion.redirectUri).send();
    } catch (error) {
      return this.sendFailure(reply, error);
    }
  }

  private context(request: FastifyRequest): CallerContext {
    // No platform credentials on this page; the service takes the platform from the link.
    return { platformId: 'hosted-kyc-page', environment: this.config.deployment, requestId: String(request.id) };
  }

  private sendFailure(reply: FastifyReply, error: unknown): void {
    if (error instanceof ServiceError && error.code === 'CONFLICT') {
      return send(reply, 410, unusableLinkPage(error.details?.state === 'USED' ? 'USED' : 'EXPIRED'));
    }
    if (error instanceof ServiceError && (error.code === 'TOKEN_NOT_FOUND' || error.code === 'INVALID_INPUT')) {
      return send(reply, 404, unusableLinkPage('UNKNOWN'));
    }
    throw error;
  }
}

function send(reply: FastifyReply, status: number, html: string): void {
  void reply.status(status).headers(PAGE_HEADERS).send(html);
}

/** The form's EDD answers, shaped like the contract (a single checkbox arrives as a string). */
function eddAnswers(token: string, form: Record<string, unknown>): CompleteKycLinkRequest {
  const answers: Record<string, unknown> = { token };
  for (const field of EDD_FIELDS) {
    const value = form[field];
    if (value === undefined || value === '') continue;
    answers[field] = field === 'sourceOfWealthCategories' ? (Array.isArray(value) ? value : [value]) : value;
  }
  return answers as unknown as CompleteKycLinkRequest;
}
