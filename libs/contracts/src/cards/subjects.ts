import { Page } from '../common';
import { SignedRetryOutcome } from '../wallet-auth';
import { Card, CardTransaction, SandboxCardSimulationResponse } from './replies';
import {
  CardIdRequest,
  CreateCardRequest,
  GetCardTransactionRequest,
  ListCardsRequest,
  ListCardTransactionsRequest,
  SimulateAdviceRequest,
  SimulateAuthorizationRequest,
  SimulateClearingRequest,
  SimulateReturnRequest,
  UpdateCardRequest,
} from './requests';

export const CARDS_SUBJECTS = {
  createCard: 'cards.card.create',
  getCard: 'cards.card.get',
  listCards: 'cards.card.list',
  /** PATCH /cards/{id}: a signed action (first call answers the challenge). */
  updateCard: 'cards.card.update',
  getCardTransaction: 'cards.card-transaction.get',
  listCardTransactions: 'cards.card-transaction.list',
  /** The sandbox card network (simulators): sandbox tokens only. */
  simulateAuthorization: 'cards.sandbox.authorization',
  simulateAdvice: 'cards.sandbox.advice',
  simulateClearing: 'cards.sandbox.clearing',
  simulateReturn: 'cards.sandbox.return',
} as const;

export interface CardsContract {
  [CARDS_SUBJECTS.createCard]: { request: CreateCardRequest; reply: Card };
  [CARDS_SUBJECTS.getCard]: { request: CardIdRequest; reply: Card };
  [CARDS_SUBJECTS.listCards]: { request: ListCardsRequest; reply: Page<Card> };
  [CARDS_SUBJECTS.updateCard]: { request: Omit<UpdateCardRequest, 'crossFieldErrors'>; reply: SignedRetryOutcome<Card> };
  [CARDS_SUBJECTS.getCardTransaction]: { request: GetCardTransactionRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.listCardTransactions]: { request: ListCardTransactionsRequest; reply: Page<CardTransaction> };
  [CARDS_SUBJECTS.simulateAuthorization]: { request: SimulateAuthorizationRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.simulateAdvice]: { request: SimulateAdviceRequest; reply: SandboxCardSimulationResponse };
  [CARDS_SUBJECTS.simulateClearing]: { request: SimulateClearingRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.simulateReturn]: { request: SimulateReturnRequest; reply: CardTransaction };
}
