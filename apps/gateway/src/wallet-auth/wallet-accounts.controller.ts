import { Body, Controller, HttpCode, Inject, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CallerContext,
  ExportWalletBody,
  InternalAccount,
  PAYMENTS_SUBJECTS,
  SignedRetryChallenge,
  UpdateWalletPrivacyBody,
  WALLET_AUTH_SUBJECTS,
  WalletExport,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { InternalAccountResponseDto } from '../payments/dto/internal-account.response';
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

  @Patch(':id')
  @HttpCode(200)
  @ApiOperation({
    summary: "Update an embedded wallet's privacy",
    description: 'Body `privateEnabled`. Signed retry: 202 challenge, then 200 with the updated internal account. Only EMBEDDED_WALLET accounts.',
  })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: InternalAccountResponseDto })
  @ApiSignedRetry()
  @ApiErrors(400, 401, 404)
  async updatePrivacy(
    @Param('id') id: string,
    @Body() body: UpdateWalletPrivacyBody,
    @Caller() caller: CallerContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InternalAccount | SignedRetryChallenge> {
    // Validate before any challenge: unknown (or another platform's) account 404, wrong type 400.
    const account = await this.services.request(PAYMENTS_SUBJECTS.getInternalAccount, { accountId: id }, caller);
    if (account.type !== 'EMBEDDED_WALLET') throw ServiceError.invalidField('privateEnabled', 'privateEnabled applies to EMBEDDED_WALLET accounts only');
    return this.signedRetry.run({ request, reply }, caller, {
      accountId: account.id,
      operation: 'WALLET_PRIVACY_UPDATE',
      apply: () => this.services.request(PAYMENTS_SUBJECTS.updateInternalAccountPrivacy, { accountId: account.id, privateEnabled: body.privateEnabled }, caller),
    });
  }
}
