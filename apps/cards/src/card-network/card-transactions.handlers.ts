import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CardTransaction, CARDS_SUBJECTS, GetCardTransactionRequest, ListCardTransactionsRequest, MessageEnvelope, Page, SearchCardTransactionsRequest } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { CardTransactionReader } from './use-cases/card-transaction-reader';

/** The card transactions' reads. */
@Controller()
export class CardTransactionsHandlers {
  constructor(private readonly reader: CardTransactionReader) {}

  @MessagePattern(CARDS_SUBJECTS.getCardTransaction)
  get(@Payload(new EnvelopePipe(GetCardTransactionRequest)) { ctx, payload }: MessageEnvelope<GetCardTransactionRequest>): Promise<CardTransaction> {
    return this.reader.get(ctx, payload.cardTransactionId);
  }

  @MessagePattern(CARDS_SUBJECTS.listCardTransactions)
  list(@Payload(new EnvelopePipe(ListCardTransactionsRequest)) { ctx, payload }: MessageEnvelope<ListCardTransactionsRequest>): Promise<Page<CardTransaction>> {
    return this.reader.list(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.searchCardTransactions)
  search(@Payload(new EnvelopePipe(SearchCardTransactionsRequest)) { ctx, payload }: MessageEnvelope<SearchCardTransactionsRequest>): Promise<Page<CardTransaction>> {
    return this.reader.search(ctx, payload);
  }
}
