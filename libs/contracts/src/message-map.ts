import { CustomersContract } from './customers';
import { WebhooksContract } from './webhooks';
import { AgentActionsContract, DirectoryContract, IncomingContract, PaymentsContract, QuotesContract, StablecoinsContract } from './payments';
import { WalletAuthContract, WalletAuthScaContract } from './wallet-auth';
import { ExternalAccountsContract } from './external-accounts';
import { CardsContract } from './cards';
import { HealthContract } from './health';
import { ClockContract } from './clock';
import { SandboxStateContract } from './sandbox';

/**
 * Every request/reply subject of the product with its payload and reply types.
 * The typed client (libs/transport) only accepts subjects and payloads listed here.
 */
export type MessageMap = CustomersContract &
  WebhooksContract &
  PaymentsContract &
  QuotesContract &
  IncomingContract &
  DirectoryContract &
  AgentActionsContract &
  StablecoinsContract &
  WalletAuthContract &
  WalletAuthScaContract &
  ExternalAccountsContract &
  CardsContract &
  HealthContract &
  ClockContract &
  SandboxStateContract;
export type Subject = keyof MessageMap;
export type RequestOf<S extends Subject> = MessageMap[S]['request'];
export type ReplyOf<S extends Subject> = MessageMap[S]['reply'];
