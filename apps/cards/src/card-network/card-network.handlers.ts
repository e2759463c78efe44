import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CardTransaction,
  CARDS_SUBJECTS,
  GetCardTransactionRequest,
  ListCardTransactionsRequest,
  MessageEnvelope,
  Page,
  SandboxCardSimulationResponse,
  SearchCardTransactionsRequest,
  SimulateAdviceRequest,
  SimulateAuthorizationAdviceRequest,
  SimulateAuthorizationRequest,
  SimulateBalanceInquiryRequest,
  SimulateClearingRequest,
  SimulateReturnRequest,
  SimulateReturnReversalRequest,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { CardNetworkService } from './card-network.service';

@Controller()
export class CardNetworkHandlers {
  constructor(private readonly network: CardNetworkService) {}

  @MessagePattern(CARDS_SUBJECTS.getCardTransaction)
  get(@Payload(new EnvelopePipe(GetCardTransactionRequest)) { ctx, payload }: MessageEnvelope<GetCardTransactionRequest>): Promise<CardTransaction> {
    return this.network.get(ctx, payload.cardTransactionId);
  }

  @MessagePattern(CARDS_SUBJECTS.listCardTransactions)
  list(@Payload(new EnvelopePipe(ListCardTransactionsRequest)) { ctx, payload }: MessageEnvelope<ListCardTransactionsRequest>): Promise<Page<CardTransaction>> {
    return this.network.list(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.searchCardTransactions)
  search(@Payload(new EnvelopePipe(SearchCardTransactionsRequest)) { ctx, payload }: MessageEnvelope<SearchCardTransactionsRequest>): Promise<Page<CardTransaction>> {
    return this.network.search(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateAuthorization)
  authorize(@Payload(new EnvelopePipe(SimulateAuthorizationRequest)) { ctx, payload }: MessageEnvelope<SimulateAuthorizationRequest>): Promise<CardTransaction> {
    return this.network.authorize(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateAdvice)
  advise(@Payload(new EnvelopePipe(SimulateAdviceRequest)) { ctx, payload }: MessageEnvelope<SimulateAdviceRequest>): Promise<SandboxCardSimulationResponse> {
    return this.network.advise(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateClearing)
  clear(@Payload(new EnvelopePipe(SimulateClearingRequest)) { ctx, payload }: MessageEnvelope<SimulateClearingRequest>): Promise<CardTransaction> {
    return this.network.clear(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateReturn)
  return(@Payload(new EnvelopePipe(SimulateReturnRequest)) { ctx, payload }: MessageEnvelope<SimulateReturnRequest>): Promise<CardTransaction> {
    return this.network.return(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateBalanceInquiry)
  balanceInquiry(
    @Payload(new EnvelopePipe(SimulateBalanceInquiryRequest)) { ctx, payload }: MessageEnvelope<SimulateBalanceInquiryRequest>,
  ): Promise<SandboxCardSimulationResponse> {
    return this.network.balanceInquiry(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateAuthorizationAdvice)
  authorizationAdvice(
    @Payload(new EnvelopePipe(SimulateAuthorizationAdviceRequest)) { ctx, payload }: MessageEnvelope<SimulateAuthorizationAdviceRequest>,
  ): Promise<SandboxCardSimulationResponse> {
    return this.network.adviseAuthorization(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.simulateReturnReversal)
  returnReversal(
    @Payload(new EnvelopePipe(SimulateReturnReversalRequest)) { ctx, payload }: MessageEnvelope<SimulateReturnReversalRequest>,
  ): Promise<SandboxCardSimulationResponse> {
    return this.network.reverseReturn(ctx, payload);
  }
}
