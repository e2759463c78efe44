import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustQuery,
  BeneficiaryTrustStart,
  CompleteScaLoginRequest,
  CompleteTwoFactorResetRequest,
  ConfirmBeneficiaryTrustRequest,
  ConfirmScaFactorRequest,
  DeleteScaFactorRequest,
  Empty,
  EnrollScaFactorRequest,
  IssueScaChallengeRequest,
  MessageEnvelope,
  RecordSecurityEventRequest,
  ResendScaChallengeRequest,
  SandboxLivenessRequest,
  ScaChallengeIssue,
  ScaCustomerQuery,
  ScaEnrollmentConfirm,
  ScaEnrollmentStart,
  ScaFactorList,
  ScaLoginComplete,
  ScaLoginStart,
  SecurityState,
  StartBeneficiaryTrustRequest,
  StartScaLoginRequest,
  StartTwoFactorResetRequest,
  TwoFactorResetIdRequest,
  TwoFactorResetStart,
  TwoFactorResetStatus,
  VerifyScaChallengeRequest,
  WALLET_AUTH_SCA_SUBJECTS,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { ScaChallenges } from './sca-challenges';
import { ScaFactors } from './sca-factors';
import { ScaLogin } from './sca-login';
import { ScaResets } from './sca-resets';

/** SCA's message handlers: one use case call each. */
@Controller()
export class ScaHandlers {
  constructor(
    private readonly factors: ScaFactors,
    private readonly login: ScaLogin,
    private readonly challenges: ScaChallenges,
    private readonly resets: ScaResets,
  ) {}

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.listFactors)
  listFactors(@Payload(new EnvelopePipe(ScaCustomerQuery)) { ctx, payload }: MessageEnvelope<ScaCustomerQuery>): Promise<ScaFactorList> {
    return this.factors.listFactors(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.enrollFactor)
  enrollFactor(@Payload(new EnvelopePipe(EnrollScaFactorRequest)) { ctx, payload }: MessageEnvelope<EnrollScaFactorRequest>): Promise<ScaEnrollmentStart> {
    return this.factors.enrollFactor(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.confirmFactor)
  confirmFactor(@Payload(new EnvelopePipe(ConfirmScaFactorRequest)) { ctx, payload }: MessageEnvelope<ConfirmScaFactorRequest>): Promise<ScaEnrollmentConfirm> {
    return this.factors.confirmFactor(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.deleteFactor)
  deleteFactor(@Payload(new EnvelopePipe(DeleteScaFactorRequest)) { ctx, payload }: MessageEnvelope<DeleteScaFactorRequest>): Promise<Empty> {
    return this.factors.deleteFactor(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.startLogin)
  startLogin(@Payload(new EnvelopePipe(StartScaLoginRequest)) { ctx, payload }: MessageEnvelope<StartScaLoginRequest>): Promise<ScaLoginStart> {
    return this.login.startLogin(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.completeLogin)
  completeLogin(@Payload(new EnvelopePipe(CompleteScaLoginRequest)) { ctx, payload }: MessageEnvelope<CompleteScaLoginRequest>): Promise<ScaLoginComplete> {
    return this.login.completeLogin(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.recordEvent)
  recordEvent(@Payload(new EnvelopePipe(RecordSecurityEventRequest)) { ctx, payload }: MessageEnvelope<RecordSecurityEventRequest>): Promise<SecurityState> {
    return this.login.recordEvent(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.startReset)
  startReset(@Payload(new EnvelopePipe(StartTwoFactorResetRequest)) { ctx, payload }: MessageEnvelope<StartTwoFactorResetRequest>): Promise<TwoFactorResetStart> {
    return this.resets.startReset(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.getReset)
  getReset(@Payload(new EnvelopePipe(TwoFactorResetIdRequest)) { ctx, payload }: MessageEnvelope<TwoFactorResetIdRequest>): Promise<TwoFactorResetStatus> {
    return this.resets.getReset(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.completeReset)
  completeReset(@Payload(new EnvelopePipe(CompleteTwoFactorResetRequest)) { ctx, payload }: MessageEnvelope<CompleteTwoFactorResetRequest>): Promise<Empty> {
    return this.resets.completeReset(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.simulateLiveness)
  simulateLiveness(@Payload(new EnvelopePipe(SandboxLivenessRequest)) { ctx, payload }: MessageEnvelope<SandboxLivenessRequest>): Promise<TwoFactorResetStatus> {
    return this.resets.simulateLiveness(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.startTrust)
  startTrust(@Payload(new EnvelopePipe(StartBeneficiaryTrustRequest)) { ctx, payload }: MessageEnvelope<StartBeneficiaryTrustRequest>): Promise<BeneficiaryTrustStart> {
    return this.challenges.startTrust(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.confirmTrust)
  confirmTrust(@Payload(new EnvelopePipe(ConfirmBeneficiaryTrustRequest)) { ctx, payload }: MessageEnvelope<ConfirmBeneficiaryTrustRequest>): Promise<BeneficiaryTrustConfirm> {
    return this.challenges.confirmTrust(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.getTrust)
  getTrust(@Payload(new EnvelopePipe(BeneficiaryTrustQuery)) { ctx, payload }: MessageEnvelope<BeneficiaryTrustQuery>): Promise<BeneficiaryTrustConfirm> {
    return this.challenges.getTrust(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.issueChallenge)
  issueChallenge(@Payload(new EnvelopePipe(IssueScaChallengeRequest)) { ctx, payload }: MessageEnvelope<IssueScaChallengeRequest>): Promise<ScaChallengeIssue> {
    return this.challenges.issueChallenge(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.verifyChallenge)
  verifyChallenge(@Payload(new EnvelopePipe(VerifyScaChallengeRequest)) { ctx, payload }: MessageEnvelope<VerifyScaChallengeRequest>): Promise<Empty> {
    return this.challenges.verifyChallenge(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SCA_SUBJECTS.resendChallenge)
  resendChallenge(@Payload(new EnvelopePipe(ResendScaChallengeRequest)) { ctx, payload }: MessageEnvelope<ResendScaChallengeRequest>): Promise<Empty> {
    return this.challenges.resendChallenge(ctx, payload);
  }
}
