import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CardTransaction,
  CARDS_SUBJECTS,
  MessageEnvelope,
  SandboxCardSimulationResponse,
  SimulateAdviceRequest,
  SimulateAuthorizationAdviceRequest,
  SimulateAuthorizationRequest,
  SimulateBalanceInquiryRequest,
  SimulateClearingRequest,
  SimulateReturnRequest,
  SimulateReturnReversalRequest,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { SimulateAdvice } from './use-cases/simulate-advice';
import { SimulateAuthorization } from './use-cases/simulate-authorization';
import { SimulateAuthorizationAdvice } from './use-cases/simulate-authorization-advice';
import { SimulateBalanceInquiry } from './use-cases/simulate-balance-inquiry';
import { SimulateClearing } from './use-cases/simulate-clearing';
import { SimulateReturn } from './use-cases/simulate-return';
import { SimulateReturnReversal } from './use-cases/simulate-return-reversal';

/** The sandbox card network's simulators, each answered by its use case (the issuer's answers in AuthorizeCard and IssuerMoney). */
@Controller()
export class CardNetworkHandlers {
  constructor(
    private readonly simulateAuthorization: SimulateAuthorization,
    private readonly simulateAdvice: SimulateAdvice,
    private readonly simulateClearing: SimulateClearing,
    private readonly simulateReturn: SimulateReturn,
    private readonly simulateBalanceInquiry: SimulateBalanceInquiry,
    private readonly simulateAuthorizationAdvice: SimulateAuthorizationAdvice,
    private readonly simulateReturnReversal: SimulateReturnReversal,
  ) {}

  @MessagePattern(CARDS_SUBJECTS.simulateAuthorization)
  authorize(@Payload(new EnvelopePipe(SimulateAuthorizationRequest)) { ctx, payload }: MessageEnvelope<SimulateAuthorizationRequest>): Promise<CardTransaction> {
    return this.simulateAuthorization.run(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateAdvice)
  advise(@Payload(new EnvelopePipe(SimulateAdviceRequest)) { ctx, payload }: MessageEnvelope<SimulateAdviceRequest>): Promise<SandboxCardSimulationResponse> {
    return this.simulateAdvice.run(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateClearing)
  clear(@Payload(new EnvelopePipe(SimulateClearingRequest)) { ctx, payload }: MessageEnvelope<SimulateClearingRequest>): Promise<CardTransaction> {
    return this.simulateClearing.run(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateReturn)
  return(@Payload(new EnvelopePipe(SimulateReturnRequest)) { ctx, payload }: MessageEnvelope<SimulateReturnRequest>): Promise<CardTransaction> {
    return this.simulateReturn.run(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateBalanceInquiry)
  balanceInquiry(
    @Payload(new EnvelopePipe(SimulateBalanceInquiryRequest)) { ctx, payload }: MessageEnvelope<SimulateBalanceInquiryRequest>,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulateBalanceInquiry.run(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateAuthorizationAdvice)
  authorizationAdvice(
    @Payload(new EnvelopePipe(SimulateAuthorizationAdviceRequest)) { ctx, payload }: MessageEnvelope<SimulateAuthorizationAdviceRequest>,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulateAuthorizationAdvice.run(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateReturnReversal)
  returnReversal(
    @Payload(new EnvelopePipe(SimulateReturnReversalRequest)) { ctx, payload }: MessageEnvelope<SimulateReturnReversalRequest>,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulateReturnReversal.run(ctx, payload);
  }
}
