import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  Card,
  CardDetails,
  CardIdRequest,
  CardRevealGrant,
  CARDS_SUBJECTS,
  CreateCardRequest,
  ListCardsRequest,
  MessageEnvelope,
  Page,
  RedeemCardRevealRequest,
  SignedRetryOutcome,
  UpdateCardRequest,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { CardsService } from './cards.service';

@Controller()
export class CardsHandlers {
  constructor(private readonly cards: CardsService) {}

  @MessagePattern(CARDS_SUBJECTS.createCard)
  create(@Payload(new EnvelopePipe(CreateCardRequest)) { ctx, payload }: MessageEnvelope<CreateCardRequest>): Promise<Card> {
    return this.cards.issue(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.getCard)
  get(@Payload(new EnvelopePipe(CardIdRequest)) { ctx, payload }: MessageEnvelope<CardIdRequest>): Promise<Card> {
    return this.cards.get(ctx, payload.cardId);
  }

  @MessagePattern(CARDS_SUBJECTS.listCards)
  list(@Payload(new EnvelopePipe(ListCardsRequest)) { ctx, payload }: MessageEnvelope<ListCardsRequest>): Promise<Page<Card>> {
    return this.cards.list(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.updateCard)
  update(@Payload(new EnvelopePipe(UpdateCardRequest)) { ctx, payload }: MessageEnvelope<UpdateCardRequest>): Promise<SignedRetryOutcome<Card>> {
    return this.cards.update(ctx, payload);
  }

  @MessagePattern(CARDS_SUBJECTS.revealCard)
  reveal(@Payload(new EnvelopePipe(CardIdRequest)) { ctx, payload }: MessageEnvelope<CardIdRequest>): Promise<CardRevealGrant> {
    return this.cards.reveal(ctx, payload.cardId);
  }

  @MessagePattern(CARDS_SUBJECTS.redeemCardReveal)
  redeemReveal(@Payload(new EnvelopePipe(RedeemCardRevealRequest)) { payload }: MessageEnvelope<RedeemCardRevealRequest>): Promise<CardDetails> {
    return this.cards.redeemReveal(payload.token);
  }
}
