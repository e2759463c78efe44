import { applyDecorators, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import {
  CallerContext,
  EXTERNAL_ACCOUNTS_SUBJECTS,
  ExternalAccount,
  ExternalAccountOwnerType,
  OwnershipChallenge,
  OwnershipChallengeRequest,
  OwnershipVerifyRequest,
} from '@paykit/contracts';
import { ServiceClient } from '@paykit/transport';
import { ErrorResponseDto } from '../errors/error-response.dto';
import { ApiErrors } from '../http/api-errors.decorator';
import { ExternalAccountResponseDto, OwnershipChallengeDto } from './dto/external-account.response';

// Wallet ownership verification works the same for customer and platform accounts; only the owner
// (and the wording of the summary) differs between the two controllers.

export const EXTERNAL_ACCOUNT_ID_EXAMPLE = 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

/** Route and documentation of `POST …/:externalAccountId/challenge`; `whose` completes the summary ("a customer's"). */
export function OwnershipChallengeRoute(whose: string): MethodDecorator {
  return applyDecorators(
    Post(':externalAccountId/challenge'),
    HttpCode(201),
    ApiOperation({
      summary: `Start ownership verification of ${whose} wallet accounts`,
      description:
        'For a FIRST_PARTY self-custody on-chain wallet (no vaspName) in PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED. WALLET_SIGNATURE answers the messageToSign ' +
        'to sign with the wallet and submit to verify; LIVENESS answers a hosted verificationLink and completes on its own (sandbox: about 30 s later, ' +
        'failing when the address ends in 002), announced by EXTERNAL_ACCOUNT.STATUS_UPDATED. A new challenge abandons the previous one and makes an ' +
        'UNVERIFIED account pending again. Other accounts: 409 CONFLICT.',
    }),
    ApiParam({ name: 'externalAccountId', example: EXTERNAL_ACCOUNT_ID_EXAMPLE }),
    ApiBody({ type: OwnershipChallengeRequest }),
    ApiCreatedResponse({ type: OwnershipChallengeDto }),
    ApiResponse({ status: 409, type: ErrorResponseDto, description: 'CONFLICT: not a first-party self-custody wallet, or already verified' }),
    ApiErrors(400, 401, 404),
  );
}

/** Route and documentation of `POST …/:externalAccountId/verify`; `whose` completes the summary ("a customer's"). */
export function OwnershipVerifyRoute(whose: string): MethodDecorator {
  return applyDecorators(
    Post(':externalAccountId/verify'),
    HttpCode(200),
    ApiOperation({
      summary: `Prove ownership of ${whose} wallet accounts with a wallet signature`,
      description:
        'Completes a WALLET_SIGNATURE challenge: the signature the wallet made over messageToSign, exactly as returned (EIP-191 hex on Ethereum, Base, ' +
        'Polygon and Plasma; TIP-191 hex on Tron; base58 Ed25519 on Solana), before expiresAt. Valid: the account becomes ACTIVE. Invalid or late: ' +
        'the account becomes UNVERIFIED and the answer is 400 (start a new challenge). No WALLET_SIGNATURE challenge outstanding: 409 CONFLICT.',
    }),
    ApiParam({ name: 'externalAccountId', example: EXTERNAL_ACCOUNT_ID_EXAMPLE }),
    ApiBody({ type: OwnershipVerifyRequest }),
    ApiOkResponse({ type: ExternalAccountResponseDto }),
    ApiResponse({ status: 409, type: ErrorResponseDto, description: 'CONFLICT: no WALLET_SIGNATURE challenge outstanding' }),
    ApiErrors(400, 401, 404),
  );
}

export function startOwnershipChallenge(
  services: ServiceClient,
  ownerType: ExternalAccountOwnerType,
  externalAccountId: string,
  body: OwnershipChallengeRequest,
  caller: CallerContext,
): Promise<OwnershipChallenge> {
  return services.request(EXTERNAL_ACCOUNTS_SUBJECTS.startOwnershipChallenge, { ownerType, externalAccountId, method: body.method }, caller);
}

export function verifyOwnership(
  services: ServiceClient,
  ownerType: ExternalAccountOwnerType,
  externalAccountId: string,
  body: OwnershipVerifyRequest,
  caller: CallerContext,
): Promise<ExternalAccount> {
  return services.request(EXTERNAL_ACCOUNTS_SUBJECTS.verifyOwnership, { ownerType, externalAccountId, signature: body.signature, signatureScheme: body.signatureScheme }, caller);
}
