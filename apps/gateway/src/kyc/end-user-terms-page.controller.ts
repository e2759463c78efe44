import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator';
import { endUserTermsPage } from './kyc-page.html';

/**
 * The end user terms a customer accepts, `GET /end-user-terms/{version}` (outside the versioned
 * base path, no credentials): the page `GET /customers/end-user-terms` links to.
 */
@ApiExcludeController()
@Public()
@Controller('end-user-terms')
export class EndUserTermsPageController {
  @Get(':version')
  show(@Param('version') version: string, @Res() reply: FastifyReply): void {
    const page = endUserTermsPage(version);
    void reply
      .status(page ? 200 : 404)
      .headers({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" })
      .send(page ?? endUserTermsPage(undefined));
  }
}
