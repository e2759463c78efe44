import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallerContext, CardDetails, CARDS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Public } from '../auth/public.decorator';

/** The reveal page's route, outside the versioned base path (see the global prefix's exclusions). */
export const REVEAL_PAGE_ROUTE = 'card-reveal/:token';

export function revealPagePath(token: string): string {
  return `/card-reveal/${encodeURIComponent(token)}`;
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The token is in the URL: keep it out of Referer headers.
  'referrer-policy': 'no-referrer',
  // Meant to be framed by the platform's client (the reveal iframe), so no frame restriction.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
};

/**
 * The card-details page of `POST /cards/{id}/reveal`: `GET /card-reveal/{token}`, for the
 * cardholder's browser (in the platform's iframe). The URL's token is the only credential and
 * works once; the cards service resolves the card from it. The details are rendered here and
 * never logged.
 */
@ApiExcludeController()
@Public()
@Controller('card-reveal')
export class CardRevealPageController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // No platform credentials on this page; the service takes the platform from the token.
    const ctx: CallerContext = { platformId: 'card-reveal-page', environment: this.config.deployment, requestId: String(request.id) };
    try {
      const details = await this.services.request(CARDS_SUBJECTS.redeemCardReveal, { token }, ctx);
      void reply.status(200).headers(PAGE_HEADERS).send(detailsPage(details));
    } catch (error) {
      if (error instanceof ServiceError && (error.code === 'TOKEN_NOT_FOUND' || error.code === 'INVALID_INPUT' || error.code === 'REFERENCE_NOT_FOUND')) {
        void reply.status(410).headers(PAGE_HEADERS).send(unusablePage());
        return;
      }
      throw error;
    }
  }
}

function detailsPage(details: CardDetails): string {
  const number = details.pan.replace(/(\d{4})(?=\d)/g, '$1 ');
  const expiry = `${String(details.expMonth).padStart(2, '0')}/${String(details.expYear).slice(-2)}`;
  return page(`<dl>
<dt>Card number</dt><dd data-field="pan">${number}</dd>
<dt>Expiry</dt><dd data-field="expiry">${expiry}</dd>
<dt>Security code</dt><dd data-field="cvv">${details.cvv}</dd>
</dl>`);
}

function unusablePage(): string {
  return page('<p>This link has expired or was already used. Ask for a new reveal.</p>');
}

function page(body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Card details</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem}dt{font-size:.8rem;color:#555}dd{margin:0 0 .6rem;font-size:1.2rem;font-variant-numeric:tabular-nums;letter-spacing:.05em}</style>
</head><body>${body}</body></html>`;
}
