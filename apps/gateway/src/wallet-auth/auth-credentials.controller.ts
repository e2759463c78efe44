import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import {
  AuthMethod,
  AuthSession,
  CallerContext,
  ChallengeCredentialBody,
  CreateCredentialBody,
  CredentialChallengeResponse,
  EnclaveKey,
  ListByAccountQuery,
  Empty,
  SignedRetryInput,
  SignedRetryOutcome,
  VerifyCredentialBody,
  WALLET_AUTH_SUBJECTS,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import {
  AuthMethodListDto,
  CreatedAuthMethodDto,
  AuthSessionDto,
  AuthSignedRetryChallengeDto,
  EnclaveKeyDto,
  OtpChallengeDto,
  PasskeyChallengeDto,
} from './dto/wallet-auth.response';

const CREDENTIAL_ID = { name: 'id', description: 'Credential id', example: 'AuthMethod:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

@ApiTags('Embedded Wallet Auth')
@ApiBasicAuth('BasicAuth')
@Controller('auth')
export class AuthCredentialsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('credentials')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add an authentication credential',
    description:
      'EMAIL_OTP (at most one), SMS_OTP (at most one), PASSKEY (WebAuthn attestation; distinct credentialId) or OAUTH (OIDC token; one per identity). ' +
      'The first credential of an account is created at once (201). When the account already has one, the first call answers 202 with a ' +
      'challenge and the signed retry (Service-Wallet-Signature + Request-Id, same body) creates it (201); an OTP credential added so comes with ' +
      'its first code sent and otpEncryptionTargetBundle.',
  })
  @ApiCreatedResponse({ type: CreatedAuthMethodDto })
  @SignedAction({ challenge: AuthSignedRetryChallengeDto })
  @ApiErrors(400, 401, 404)
  create(@Body() body: CreateCredentialBody, @Caller() caller: CallerContext, @SignedRetry() signedRetry: SignedRetryInput): Promise<SignedRetryOutcome<AuthMethod>> {
    return this.services.request(
      WALLET_AUTH_SUBJECTS.createCredential,
      {
        type: body.type,
        accountId: body.accountId,
        email: body.email,
        phoneNumber: body.phoneNumber,
        nickname: body.nickname,
        challenge: body.challenge,
        attestation: body.attestation,
        oidcToken: body.oidcToken,
        signedRetry,
      },
      caller,
    );
  }

  @Get('credentials')
  @ApiOperation({ summary: "List an account's credentials", description: 'Every active credential of the embedded wallet account; not paginated.' })
  @ApiOkResponse({ type: AuthMethodListDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListByAccountQuery, @Caller() caller: CallerContext): Promise<{ data: AuthMethod[] }> {
    return this.services.request(WALLET_AUTH_SUBJECTS.listCredentials, { accountId: query.accountId }, caller);
  }

  @Post('credentials/:id/challenge')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start authenticating with a credential',
    description:
      'EMAIL_OTP/SMS_OTP: issues a fresh code (sandbox: always 000000, not delivered) and answers the credential with otpEncryptionTargetBundle; rate limited (429 with Retry-After). ' +
      'PASSKEY: body clientPublicKey; answers the credential with challenge, requestId, credentialId and expiresAt. OAUTH has no challenge (verify directly).',
  })
  @ApiParam(CREDENTIAL_ID)
  @ApiExtraModels(OtpChallengeDto, PasskeyChallengeDto)
  @ApiOkResponse({
    description: 'The credential, plus (EMAIL_OTP/SMS_OTP) the target bundle of the fresh code or (PASSKEY) the challenge to assert over',
    schema: { oneOf: [{ $ref: getSchemaPath(OtpChallengeDto) }, { $ref: getSchemaPath(PasskeyChallengeDto) }] },
  })
  @ApiErrors(400, 401, 404, 429)
  challenge(@Param('id') id: string, @Body() body: ChallengeCredentialBody, @Caller() caller: CallerContext): Promise<CredentialChallengeResponse> {
    return this.services.request(WALLET_AUTH_SUBJECTS.challengeCredential, { authMethodId: id, clientPublicKey: body.clientPublicKey }, caller);
  }

  @Post('credentials/:id/verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a credential and get a session',
    description:
      'EMAIL_OTP/SMS_OTP: encryptedOtpBundle; a right code answers 202 with payloadToSign, to be stamped with the key inside the bundle and retried ' +
      '(Service-Wallet-Signature + Request-Id) for the 200 session. PASSKEY: assertion plus the Request-Id header of the challenge. ' +
      'OAUTH: a fresh oidcToken (nonce = SHA-256 of clientPublicKey) and clientPublicKey. PASSKEY and OAUTH sessions carry encryptedSessionSigningKey. ' +
      'Failures are 401 UNAUTHORIZED with details.reason naming the failed check; a malformed OIDC token is 400 INVALID_INPUT.',
  })
  @ApiParam(CREDENTIAL_ID)
  @ApiOkResponse({ type: AuthSessionDto })
  @SignedAction({ challenge: AuthSignedRetryChallengeDto })
  @ApiErrors(400, 401, 404)
  verify(
    @Param('id') id: string,
    @Body() body: VerifyCredentialBody,
    @Caller() caller: CallerContext,
    @SignedRetry() signedRetry: SignedRetryInput,
  ): Promise<SignedRetryOutcome<AuthSession>> {
    return this.services.request(
      WALLET_AUTH_SUBJECTS.verifyCredential,
      {
        authMethodId: id,
        type: body.type,
        encryptedOtpBundle: body.encryptedOtpBundle,
        oidcToken: body.oidcToken,
        clientPublicKey: body.clientPublicKey,
        assertion: body.assertion,
        signedRetry,
      },
      caller,
    );
  }

  @Delete('credentials/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a credential',
    description:
      "Signed retry: 202 challenge, then 204. Must be signed by a session of another credential; the credential's sessions are revoked with it; " +
      'the last remaining credential cannot be revoked (400 INVALID_INPUT, details.reason LAST_CREDENTIAL).',
  })
  @ApiParam(CREDENTIAL_ID)
  @ApiNoContentResponse({ description: 'Revoked' })
  @SignedAction({ challenge: AuthSignedRetryChallengeDto })
  @ApiErrors(400, 401, 404)
  revoke(@Param('id') id: string, @Caller() caller: CallerContext, @SignedRetry() signedRetry: SignedRetryInput): Promise<SignedRetryOutcome<Empty>> {
    return this.services.request(WALLET_AUTH_SUBJECTS.revokeCredential, { authMethodId: id, signedRetry }, caller);
  }

  @Get('enclave-key')
  @ApiOperation({
    summary: "The deployment's enclave public key",
    description: 'Every otpEncryptionTargetBundle is signed by this key; clients pin it as the last argument of encryptOtpCodeToBundle.',
  })
  @ApiOkResponse({ type: EnclaveKeyDto })
  @ApiErrors(401)
  enclaveKey(@Caller() caller: CallerContext): Promise<EnclaveKey> {
    return this.services.request(WALLET_AUTH_SUBJECTS.getEnclaveKey, {}, caller);
  }
}
