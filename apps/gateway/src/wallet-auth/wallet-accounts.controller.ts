import { Body, Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallerContext, ExportWalletBody, SignedRetryChallenge, WALLET_AUTH_SUBJECTS, WalletExport } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { WalletExportDto } from './dto/wallet-auth.response';
import { ApiSignedRetry, SignedRetryGateway } from './signed-retry';

const ACCOUNT_ID = { name: 'id', description: 'Embedded wallet internal account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

/** The signed actions on an embedded wallet account itself. */
@ApiTags('Internal accounts')
@ApiBasicAuth('BasicAuth')
@Controller('internal-accounts')
export class WalletAccountsController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly signedRetry: SignedRetryGateway,
  ) {}

  @Post(':id/export')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Export an embedded wallet',
    description: 'Signed retry: 202 challenge, then 200 with the wallet private key sealed to clientPublicKey (open with decryptCredentialBundle).',
  })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: WalletExportDto })
  @ApiSignedRetry()
  @ApiErrors(400, 401, 404)
  async export(
    @Param('id') id: string,
    @Body() body: ExportWalletBody,
    @Caller() caller: CallerContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WalletExport | SignedRetryChallenge> {
    const outcome = await this.services.request(
      WALLET_AUTH_SUBJECTS.exportWallet,
      { accountId: id, clientPublicKey: body.clientPublicKey, signedRetry: this.signedRetry.input(request) },
      caller,
    );
    return this.signedRetry.respond(outcome, reply);
  }
}
