import { CARDS_EVENTS, CARDS_WORK_EVENTS, AdviceReceivedData, AuthorizationInterruptedData, Card, CardClosedData, CardTransaction, PullDueData } from './cards';
import { DomainEvent } from './common';
import { BeneficialOwner, BulkImportJob, Customer, CustomerDocument, CUSTOMERS_EVENTS, Verification } from './customers';
import { EXTERNAL_ACCOUNTS_EVENTS, ExternalAccount } from './external-accounts';
import {
  AGENT_ACTIONS_EVENTS,
  AgentAction,
  CustomerAccountsProvisionedData,
  InternalAccount,
  InternalAccountRecord,
  Invitation,
  PAYMENTS_EVENTS,
  QuoteAuthorizationTransaction,
  Transaction,
} from './payments';
import { AuthMethod, AuthSession, WALLET_AUTH_EVENTS, WalletProvisionedData } from './wallet-auth';

/**
 * Every event subject of the product with the payload (`data`) its events carry. `Outbox.add`
 * only accepts a subject listed here with its payload, and consumers receive events typed by it,
 * so a change to an event's shape does not compile where the event is written or read.
 */
export interface EventMap {
  [CUSTOMERS_EVENTS.customerCreated]: Customer;
  [CUSTOMERS_EVENTS.customerUpdated]: Customer;
  [CUSTOMERS_EVENTS.customerDeleted]: Customer;
  [CUSTOMERS_EVENTS.kycStatusChanged]: Customer;
  [CUSTOMERS_EVENTS.contactVerified]: Customer;
  [CUSTOMERS_EVENTS.beneficialOwnerCreated]: BeneficialOwner;
  [CUSTOMERS_EVENTS.beneficialOwnerUpdated]: BeneficialOwner;
  [CUSTOMERS_EVENTS.documentReviewed]: CustomerDocument;
  [CUSTOMERS_EVENTS.documentDeleted]: CustomerDocument;
  [CUSTOMERS_EVENTS.verificationUpdated]: Verification;
  [CUSTOMERS_EVENTS.bulkImportFinished]: BulkImportJob;
  [EXTERNAL_ACCOUNTS_EVENTS.accountCreated]: ExternalAccount;
  [EXTERNAL_ACCOUNTS_EVENTS.accountUpdated]: ExternalAccount;
  [EXTERNAL_ACCOUNTS_EVENTS.statusChanged]: ExternalAccount;
  [PAYMENTS_EVENTS.internalAccountCreated]: InternalAccountRecord;
  [PAYMENTS_EVENTS.customerAccountsProvisioned]: CustomerAccountsProvisionedData;
  [PAYMENTS_EVENTS.internalAccountUpdated]: InternalAccountRecord;
  [PAYMENTS_EVENTS.internalAccountStatusChanged]: InternalAccount;
  [PAYMENTS_EVENTS.internalAccountBalanceChanged]: InternalAccount;
  [PAYMENTS_EVENTS.transactionStatusChanged]: Transaction;
  [PAYMENTS_EVENTS.transactionRefundChanged]: Transaction;
  [PAYMENTS_EVENTS.quoteAuthorizationChanged]: QuoteAuthorizationTransaction;
  [PAYMENTS_EVENTS.invitationClaimed]: Invitation;
  [AGENT_ACTIONS_EVENTS.pendingApproval]: AgentAction;
  [WALLET_AUTH_EVENTS.credentialCreated]: AuthMethod;
  [WALLET_AUTH_EVENTS.credentialRevoked]: AuthMethod & { revokedSessionIds: string[] };
  [WALLET_AUTH_EVENTS.credentialEmailChanged]: { credentialId: string; customerId: string };
  [WALLET_AUTH_EVENTS.sessionCreated]: AuthSession;
  [WALLET_AUTH_EVENTS.sessionRevoked]: { sessionId: string };
  [WALLET_AUTH_EVENTS.walletProvisioned]: WalletProvisionedData;
  [CARDS_EVENTS.cardIssued]: Card;
  [CARDS_EVENTS.cardStateChanged]: Card;
  [CARDS_EVENTS.cardFundingSourcesChanged]: Card;
  [CARDS_EVENTS.cardTransactionStatusChanged]: CardTransaction;
  [CARDS_WORK_EVENTS.pullDue]: PullDueData;
  [CARDS_WORK_EVENTS.cardClosed]: CardClosedData;
  [CARDS_WORK_EVENTS.adviceReceived]: AdviceReceivedData;
  [CARDS_WORK_EVENTS.authorizationInterrupted]: AuthorizationInterruptedData;
}

export type EventSubject = keyof EventMap;

/** An event of one subject, as published and as delivered. */
export type EventOf<S extends EventSubject> = DomainEvent<EventMap[S]> & { subject: S };

/**
 * An event as its producer writes it; the outbox stamps the id, the time and the contract's
 * schema version. A union over subjects, so a subject and its payload are checked together.
 */
export type NewEvent<S extends EventSubject = EventSubject> = {
  [K in S]: Omit<EventOf<K>, 'eventId' | 'occurredAt' | 'schemaVersion'>;
}[S];
