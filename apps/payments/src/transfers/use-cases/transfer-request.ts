import { EntityManager } from 'typeorm';
import { ExternalAccountWithRouting, PaymentRail, PurposeOfPayment, Transaction, TransactionType, TransferInMessage, TransferOutMessage } from '@paykit/contracts';
import { CurrencyInfo } from '../../currencies/currencies.repository';
import { InternalAccountWithBalance } from '../../internal-accounts/entities/internal-account.entity';
import { transferOutcome } from '../transfers.sandbox';

export interface TransferRequest {
  type: TransactionType;
  internalAccountId: string;
  externalAccountId: string;
  /** Omitted on a transfer-out: the whole available balance; a transfer-in needs it. */
  amount?: number;
  currency?: string;
  description?: string;
  paymentRail?: PaymentRail;
  remittanceInformation?: string;
  purposeOfPayment?: PurposeOfPayment;
  idempotencyKey?: string;
  /** A client library's automatic retry (`X-Stainless-Retry-Count` 1 or more). */
  retryOf?: { attempt: number };
  /** Who asked, when not the platform's API itself: `agent:<agentId>` (part of the request's fingerprint). */
  origin?: string;
}

/** A transfer that passed every check before the database transaction, ready to move. */
export interface CheckedTransfer {
  request: TransferRequest;
  hash: string;
  /** Without an Idempotency-Key: the request's fingerprint, written with the transfer. */
  fingerprint?: string;
  account: InternalAccountWithBalance;
  external: ExternalAccountWithRouting;
  currency: CurrencyInfo;
  outcome: ReturnType<typeof transferOutcome>;
  /** The amount that moves: the request's, or (transfer-out without one) the available balance at the check. */
  amount: bigint;
  /** The platform's id of the owning customer (the platform's own id for its accounts). */
  platformCustomerId: string;
  /** OUTGOING: the rail and whether the request chose it. */
  rail?: { paymentRail: PaymentRail; mode: 'AUTO' | 'MANUAL' };
}

/**
 * What an agent's transfer adds to `move`: its policy step inside the transfer's database
 * transaction, and whether the transfer waits for the platform's approval.
 */
export interface MoveHooks {
  /** After the account lock, before anything is written (an agent's usage reservation; throwing refuses the transfer). */
  beforeWrite?: (manager: EntityManager) => Promise<void>;
  /** After the transfer is written, in the same transaction (the agent action that records it). */
  afterWrite?: (manager: EntityManager, transaction: Transaction) => Promise<void>;
  /**
   * Write the transfer PENDING holding nothing and counting against no limit; its balance and
   * limits are checked, its funds held and its steps scheduled only when approved (`startApproved`).
   */
  awaitApproval?: boolean;
}

export function incoming(request: TransferInMessage): TransferRequest {
  return {
    type: 'INCOMING',
    internalAccountId: request.destination.accountId,
    externalAccountId: request.source.accountId,
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    idempotencyKey: request.idempotencyKey,
    retryOf: request.retryOf,
  };
}

export function outgoing(request: TransferOutMessage): TransferRequest {
  return {
    type: 'OUTGOING',
    internalAccountId: request.source.accountId,
    externalAccountId: request.destination.accountId,
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    paymentRail: request.destination.paymentRail,
    remittanceInformation: request.remittanceInformation,
    purposeOfPayment: request.purposeOfPayment,
    idempotencyKey: request.idempotencyKey,
    retryOf: request.retryOf,
  };
}
