import { Page } from '../common';
import { SignedRetryOutcome } from '../wallet-auth';
import { Card, CardDetails, CardRevealGrant, CardTransaction, SandboxCardSimulationResponse } from './replies';
import {
  CardIdRequest,
  CreateCardRequest,
  GetCardTransactionRequest,
  ListCardsRequest,
  ListCardTransactionsRequest,
  RedeemCardRevealRequest,
  SearchCardTransactionsRequest,
  SimulateAdviceRequest,
  SimulateAuthorizationAdviceRequest,
  SimulateAuthorizationRequest,
  SimulateBalanceInquiryRequest,
  SimulateClearingRequest,
  SimulateReturnRequest,
  SimulateReturnReversalRequest,
  UpdateCardRequest,
} from './requests';

export const CARDS_SUBJECTS = {
  createCard: 'cards.card.create',
  getCard: 'cards.card.get',
  listCards: 'cards.card.list',
  /** PATCH /cards/{id}: a signed action (first call answers the challenge). */
  updateCard: 'cards.card.update',
  /** POST /cards/{id}/reveal: mints a short-lived URL of the page showing the card details. */
  revealCard: 'cards.card.reveal',
  /** The reveal page asks the details by its URL's token (once, before it expires). */
  redeemCardReveal: 'cards.card.redeem-reveal',
  getCardTransaction: 'cards.card-transaction.get',
  listCardTransactions: 'cards.card-transaction.list',
  /** The platform's card transactions across cards (the transaction list's card part). */
  searchCardTransactions: 'cards.card-transaction.search',
  /** The sandbox card network (simulators): sandbox tokens only. */
  simulateAuthorization: 'cards.sandbox.authorization',
  simulateAdvice: 'cards.sandbox.advice',
  simulateClearing: 'cards.sandbox.clearing',
  simulateReturn: 'cards.sandbox.return',
  simulateBalanceInquiry: 'cards.sandbox.balance-inquiry',
  simulateAuthorizationAdvice: 'cards.sandbox.authorization-advice',
  simulateReturnReversal: 'cards.sandbox.return-reversal',
} as const;

export interface CardsContract {
  [CARDS_SUBJECTS.createCard]: { request: CreateCardRequest; reply: Card };
  [CARDS_SUBJECTS.getCard]: { request: CardIdRequest; reply: Card };
  [CARDS_SUBJECTS.listCards]: { request: ListCardsRequest; reply: Page<Card> };
  [CARDS_SUBJECTS.updateCard]: { request: Omit<UpdateCardRequest, 'crossFieldErrors'>; reply: SignedRetryOutcome<Card> };
  [CARDS_SUBJECTS.revealCard]: { request: CardIdRequest; reply: CardRevealGrant };
  [CARDS_SUBJECTS.redeemCardReveal]: { request: RedeemCardRevealRequest; reply: CardDetails };
  [CARDS_SUBJECTS.getCardTransaction]: { request: GetCardTransactionRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.listCardTransactions]: { request: ListCardTransactionsRequest; reply: Page<CardTransaction> };
  [CARDS_SUBJECTS.searchCardTransactions]: { request: SearchCardTransactionsRequest; reply: Page<CardTransaction> };
  [CARDS_SUBJECTS.simulateAuthorization]: { request: SimulateAuthorizationRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.simulateAdvice]: { request: SimulateAdviceRequest; reply: SandboxCardSimulationResponse };
  [CARDS_SUBJECTS.simulateClearing]: { request: SimulateClearingRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.simulateReturn]: { request: SimulateReturnRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.simulateBalanceInquiry]: { request: SimulateBalanceInquiryRequest; reply: SandboxCardSimulationResponse };
  [CARDS_SUBJECTS.simulateAuthorizationAdvice]: { request: SimulateAuthorizationAdviceRequest; reply: SandboxCardSimulationResponse };
  [CARDS_SUBJECTS.simulateReturnReversal]: { request: SimulateReturnReversalRequest; reply: SandboxCardSimulationResponse };
}
