import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustStart,
  CallerContext,
  CompleteScaLoginBody,
  CompleteTwoFactorResetBody,
  ConfirmBeneficiaryTrustBody,
  ConfirmScaFactorBody,
  EnrollScaFactorBody,
  RecordSecurityEventBody,
  SandboxLivenessBody,
  ScaCustomerQuery,
  ScaEnrollmentConfirm,
  ScaEnrollmentStart,
  ScaFactorList,
  ScaLoginComplete,
  ScaLoginStart,
  SecurityState,
  StartScaLoginBody,
  StartTwoFactorResetBody,
  TwoFactorResetStart,
  TwoFactorResetStatus,
  WALLET_AUTH_SCA_SUBJECTS,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { BasicAuthOnly } from '../auth/public.decorator';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import {
  BeneficiaryTrustConfirmDto,
  BeneficiaryTrustStartDto,
  ScaEnrollmentConfirmDto,
  ScaEnrollmentStartDto,
  ScaFactorListDto,
  ScaLoginCompleteDto,
  ScaLoginStartDto,
  SecurityStateDto,
  TwoFactorResetStartDto,
  TwoFactorResetStatusDto,
} from './dto/sca.response';

const TAG = 'Strong Customer Authentication';
const REGULATED = ' Only for SCA-regulated customers (an address in the European Economic Area); any other customer answers 409 CONFLICT (`details.reason` SCA_NOT_REQUIRED).';
const SANDBOX_CODE = ' Sandbox: every SMS and TOTP code is `123456` and nothing is sent.';
const RESET_ID = { name: 'resetId', description: 'The reset (`TwoFactorReset:<uuid>`)', example: 'TwoFactorReset:019542f5-b3e7-1d02-0000-000000000001' };
const ACCOUNT_ID = { name: 'externalAccountId', description: 'The external account (beneficiary)', example: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000002' };

/** Strong Customer Authentication (wallet-auth): factors, login, the lock, 2FA resets and trusted beneficiaries. */
@ApiTags(TAG)
@ApiBasicAuth('BasicAuth')
@Controller()
export class ScaController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('sca/factors')
  @ApiOperation({ summary: 'List enrolled SCA factors', description: `SMS_OTP (on the verified phone), TOTP and PASSKEY.${REGULATED}` })
  @ApiOkResponse({ type: ScaFactorListDto })
  @ApiErrors(400, 401, 404, 409)
  listFactors(@Query() query: ScaCustomerQuery, @Caller() caller: CallerContext): Promise<ScaFactorList> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.listFactors, { customerId: query.customerId }, caller);
  }

  @Post('sca/factors')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start SCA factor enrollment',
    description:
      'TOTP answers the shared secret (RFC 6238, SHA-1, 6 digits, 30 s; kept sealed), in base32 and as an otpauth:// URI; PASSKEY answers WebAuthn registration options. ' +
      `One passkey per customer (409 PASSKEY_ALREADY_ENROLLED) and one authenticator app.${REGULATED}`,
  })
  @ApiOkResponse({ type: ScaEnrollmentStartDto })
  @ApiErrors(400, 401, 404, 409)
  enrollFactor(@Query() query: ScaCustomerQuery, @Body() body: EnrollScaFactorBody, @Caller() caller: CallerContext): Promise<ScaEnrollmentStart> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.enrollFactor, { customerId: query.customerId, type: body.type }, caller);
  }

  @Post('sca/factors/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm SCA factor enrollment',
    description: `TOTP: the start's \`secret\` and the first code, answering one-time recovery codes (shown once); PASSKEY: the device's credential and its origin, verified by WebAuthn.${REGULATED}${SANDBOX_CODE}`,
  })
  @ApiOkResponse({ type: ScaEnrollmentConfirmDto })
  @ApiErrors(400, 401, 404, 409)
  confirmFactor(@Query() query: ScaCustomerQuery, @Body() body: ConfirmScaFactorBody, @Caller() caller: CallerContext): Promise<ScaEnrollmentConfirm> {
    return this.services.request(
      WALLET_AUTH_SCA_SUBJECTS.confirmFactor,
      { customerId: query.customerId, type: body.type, secret: body.secret, code: body.code, origin: body.origin, credential: body.credential },
      caller,
    );
  }

  @Delete('sca/factors/:credentialId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an enrolled SCA factor', description: `A passkey, by its credentialId.${REGULATED}` })
  @ApiParam({ name: 'credentialId', description: "The passkey's credentialId", example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(400, 401, 404, 409)
  async deleteFactor(@Param('credentialId') credentialId: string, @Query() query: ScaCustomerQuery, @Caller() caller: CallerContext): Promise<void> {
    await this.services.request(WALLET_AUTH_SCA_SUBJECTS.deleteFactor, { customerId: query.customerId, credentialId }, caller);
  }

  @Post('sca/login/start')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start an SCA login',
    description: `SMS_OTP sends a code (challengeId, expiresAt); TOTP answers the factor only; PASSKEY answers assertion options. A locked customer answers 423.${REGULATED}`,
  })
  @ApiOkResponse({ type: ScaLoginStartDto })
  @ApiErrors(400, 401, 404, 409, 423)
  startLogin(@Query() query: ScaCustomerQuery, @Body() body: StartScaLoginBody, @Caller() caller: CallerContext): Promise<ScaLoginStart> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.startLogin, { customerId: query.customerId, factor: body.factor }, caller);
  }

  @Post('sca/login/complete')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Complete an SCA login',
    description:
      'Opens an SCA session of 180 days (`sessionExpiresAt`), which authorizing money movements needs (409 SCA_SESSION_REQUIRED without one). ' +
      `A wrong proof answers 400 and counts as a failed login attempt; a locked customer answers 423 ACCOUNT_LOCKED with \`details.lockedUntil\`.${REGULATED}${SANDBOX_CODE}`,
  })
  @ApiOkResponse({ type: ScaLoginCompleteDto })
  @ApiErrors(400, 401, 404, 409, 423)
  completeLogin(@Query() query: ScaCustomerQuery, @Body() body: CompleteScaLoginBody, @Caller() caller: CallerContext): Promise<ScaLoginComplete> {
    return this.services.request(
      WALLET_AUTH_SCA_SUBJECTS.completeLogin,
      {
        customerId: query.customerId,
        factor: body.factor,
        endUserIpAddress: body.endUserIpAddress,
        challengeId: body.challengeId,
        code: body.code,
        passkeyAssertion: body.passkeyAssertion,
        origin: body.origin,
      },
      caller,
    );
  }

  @Post('sca/record-event')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Record a security event',
    description:
      'FAILED_LOGIN_ATTEMPT counts a failed login: each fifth locks the login, for 15 minutes, then 30 minutes, 1 hour, 24 hours, then suspends it; ' +
      `while locked it answers 423 ACCOUNT_LOCKED (\`details.lockedUntil\`). RESET_PASSWORD_COMPLETED revokes every SCA session and clears the count and any lock.${REGULATED}`,
  })
  @ApiOkResponse({ type: SecurityStateDto })
  @ApiErrors(400, 401, 404, 409, 423)
  recordEvent(@Query() query: ScaCustomerQuery, @Body() body: RecordSecurityEventBody, @Caller() caller: CallerContext): Promise<SecurityState> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.recordEvent, { customerId: query.customerId, eventType: body.eventType }, caller);
  }

  @Post('sca/factors/reset')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Start a 2FA reset',
    description:
      'Opens a liveness-gated reset of a lost factor for 30 minutes: INITIATED, PENDING_REVIEW, LIVENESS_PASSED, then COMPLETED (or REJECTED, EXPIRED). ' +
      `At most 5 per 24 hours (429 with Retry-After). Sandbox: drive the liveness outcome with POST /sandbox/sca/factors/reset/{resetId}/liveness.${REGULATED}`,
  })
  @ApiCreatedResponse({ type: TwoFactorResetStartDto })
  @ApiErrors(400, 401, 404, 409, 429)
  startReset(@Query() query: ScaCustomerQuery, @Body() body: StartTwoFactorResetBody, @Caller() caller: CallerContext): Promise<TwoFactorResetStart> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.startReset, { customerId: query.customerId, factor: body.factor }, caller);
  }

  @Get('sca/factors/reset/:resetId')
  @ApiOperation({ summary: 'Get 2FA reset status', description: `A reset not finished by \`expiresAt\` reads EXPIRED.${REGULATED}` })
  @ApiParam(RESET_ID)
  @ApiOkResponse({ type: TwoFactorResetStatusDto })
  @ApiErrors(400, 401, 404, 409)
  getReset(@Param('resetId') resetId: string, @Query() query: ScaCustomerQuery, @Caller() caller: CallerContext): Promise<TwoFactorResetStatus> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.getReset, { customerId: query.customerId, resetId }, caller);
  }

  @Post('sca/factors/reset/:resetId/complete')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Complete a 2FA reset',
    description: `Once LIVENESS_PASSED (else 400): clears the lost TOTP or PASSKEY factor (re-enroll it), or for SMS_OTP makes \`mobile\` the customer's phone number.${REGULATED}`,
  })
  @ApiParam(RESET_ID)
  @ApiBody({ type: CompleteTwoFactorResetBody, required: false })
  @ApiNoContentResponse({ description: 'Completed' })
  @ApiErrors(400, 401, 404, 409)
  async completeReset(
    @Param('resetId') resetId: string,
    @Query() query: ScaCustomerQuery,
    @Body() body: CompleteTwoFactorResetBody | undefined,
    @Caller() caller: CallerContext,
  ): Promise<void> {
    await this.services.request(WALLET_AUTH_SCA_SUBJECTS.completeReset, { customerId: query.customerId, resetId, ...(body?.mobile ? { mobile: body.mobile } : {}) }, caller);
  }

  @Post('customers/external-accounts/:externalAccountId/trust')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start trusting a beneficiary',
    description: `Issues the SCA challenge the confirm call answers. Payouts to a trusted beneficiary skip the per-payment challenge; a trusted account cannot be deleted (409 BENEFICIARY_TRUSTED).${REGULATED}`,
  })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: BeneficiaryTrustStartDto })
  @ApiErrors(400, 401, 404, 409)
  startTrust(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<BeneficiaryTrustStart> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.startTrust, { externalAccountId, trusted: true }, caller);
  }

  @Post('customers/external-accounts/:externalAccountId/trust/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm trusting a beneficiary', description: `The proof of the start's challenge; answers \`trusted: true\`.${REGULATED}${SANDBOX_CODE}` })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: BeneficiaryTrustConfirmDto })
  @ApiErrors(400, 401, 404, 409, 423, 429)
  confirmTrust(
    @Param('externalAccountId') externalAccountId: string,
    @Body() body: ConfirmBeneficiaryTrustBody,
    @Caller() caller: CallerContext,
  ): Promise<BeneficiaryTrustConfirm> {
    return this.confirm(externalAccountId, true, body, caller);
  }

  @Post('customers/external-accounts/:externalAccountId/untrust')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start untrusting a beneficiary',
    description: `Issues the SCA challenge the confirm call answers; payouts to it need their challenge again.${REGULATED}`,
  })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: BeneficiaryTrustStartDto })
  @ApiErrors(400, 401, 404, 409)
  startUntrust(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<BeneficiaryTrustStart> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.startTrust, { externalAccountId, trusted: false }, caller);
  }

  @Post('customers/external-accounts/:externalAccountId/untrust/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm untrusting a beneficiary', description: `The proof of the start's challenge; answers \`trusted: false\`.${REGULATED}${SANDBOX_CODE}` })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: BeneficiaryTrustConfirmDto })
  @ApiErrors(400, 401, 404, 409, 423, 429)
  confirmUntrust(
    @Param('externalAccountId') externalAccountId: string,
    @Body() body: ConfirmBeneficiaryTrustBody,
    @Caller() caller: CallerContext,
  ): Promise<BeneficiaryTrustConfirm> {
    return this.confirm(externalAccountId, false, body, caller);
  }

  private confirm(externalAccountId: string, trusted: boolean, body: ConfirmBeneficiaryTrustBody, caller: CallerContext): Promise<BeneficiaryTrustConfirm> {
    return this.services.request(
      WALLET_AUTH_SCA_SUBJECTS.confirmTrust,
      {
        externalAccountId,
        trusted,
        challengeId: body.challengeId,
        code: body.code,
        passkeyAssertion: body.passkeyAssertion,
        origin: body.origin,
        endUserIpAddress: body.endUserIpAddress,
      },
      caller,
    );
  }
}

/** The sandbox's liveness check of a 2FA reset. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@Controller('sandbox/sca/factors/reset')
export class SandboxScaController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post(':resetId/liveness')
  @HttpCode(200)
  @ApiOperation({
    summary: "Simulate a 2FA reset's liveness outcome",
    description: 'PENDING_REVIEW (from INITIATED), LIVENESS_PASSED or REJECTED (from INITIATED or PENDING_REVIEW); answers the reset status. Sandbox only.',
  })
  @ApiParam(RESET_ID)
  @ApiOkResponse({ type: TwoFactorResetStatusDto })
  @ApiErrors(400, 401, 403, 404, 409)
  liveness(@Param('resetId') resetId: string, @Query() query: ScaCustomerQuery, @Body() body: SandboxLivenessBody, @Caller() caller: CallerContext): Promise<TwoFactorResetStatus> {
    return this.services.request(WALLET_AUTH_SCA_SUBJECTS.simulateLiveness, { customerId: query.customerId, resetId, outcome: body.outcome }, caller);
  }
}
