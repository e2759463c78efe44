import { CustomersContract } from './customers';
import { WebhooksContract } from './webhooks';
import { PaymentsContract } from './payments';
import { WalletAuthContract } from './wallet-auth';
import { ExternalAccountsContract } from './external-accounts';
import { CardsContract } from './cards';

export * from './amounts';
export * from './common';
export * from './ids';
export * from './sandbox-suffix';
export * from './customers';
export * from './webhooks';
export * from './payments';
export * from './wallet-auth';
export * from './external-accounts';
export * from './cards';

/**
 * Every request/reply subject of the product with its payload and reply types.
 * The typed client (libs/transport) only accepts subjects and payloads listed here.
 */
export type MessageMap = CustomersContract & WebhooksContract & PaymentsContract & WalletAuthContract & ExternalAccountsContract & CardsContract;
export type Subject = keyof MessageMap;
export type RequestOf<S extends Subject> = MessageMap[S]['request'];
export type ReplyOf<S extends Subject> = MessageMap[S]['reply'];
