import { Body, Controller, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  ExportWalletBody,
  InternalAccount,
  PAYMENTS_SUBJECTS,
  SignedRetryInput,
  SignedRetryOutcome,
  UpdateWalletPrivacyBody,
  WALLET_AUTH_SUBJECTS,
  WalletExport,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import { InternalAccountResponseDto } from '../payments/dto/internal-account.response';
import { WalletExportDto } from './dto/wallet-auth.response';

const ACCOUNT_ID = { name: 'id', description: 'Embedded wallet internal account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

/** The signed actions on an embedded wallet account itself. */
@ApiTags('Internal accounts')
@ApiBasicAuth('BasicAuth')
@Controller('internal-accounts')
export class WalletAccountsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post(':id/export')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Export an embedded wallet',
    description: 'Signed retry: 202 challenge, then 200 with the wallet private key sealed to clientPublicKey (open with decryptCredentialBundle).',
  })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: WalletExportDto })
  @SignedAction()
  @ApiErrors(400, 401, 404)
  export(
    @Param('id') id: string,
    @Body() body: ExportWalletBody,
    @Caller() caller: CallerContext,
    @SignedRetry() signedRetry: SignedRetryInput,
  ): Promise<SignedRetryOutcome<WalletExport>> {
    return this.services.request(WALLET_AUTH_SUBJECTS.exportWallet, { accountId: id, clientPublicKey: body.clientPublicKey, signedRetry }, caller);
  }

  @Patch(':id')
  @HttpCode(200)
  @ApiOperation({
    summary: "Update an embedded wallet's privacy",
    description:
      'Body `privateEnabled` (the only updatable field: a body without it answers 400). Signed retry: 202 challenge, then 200 with the updated internal account. Only EMBEDDED_WALLET accounts.',
  })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: InternalAccountResponseDto })
  @SignedAction()
  @ApiErrors(400, 401, 404)
  updatePrivacy(
    @Param('id') id: string,
    @Body() body: UpdateWalletPrivacyBody,
    @Caller() caller: CallerContext,
    @SignedRetry() signedRetry: SignedRetryInput,
  ): Promise<SignedRetryOutcome<InternalAccount>> {
    return this.services.request(
      PAYMENTS_SUBJECTS.updateInternalAccountPrivacy,
      { accountId: id, ...(body.privateEnabled !== undefined ? { privateEnabled: body.privateEnabled } : {}), signedRetry },
      caller,
    );
  }
}
