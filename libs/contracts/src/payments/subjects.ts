import { Page } from '../common';
import { SignedRetryOutcome } from '../wallet-auth';
import { Credit, DailyVolumeLimit, Hold, InternalAccount, InternalAccountRecord, Transaction, VelocityLimit } from './replies';
import {
  CaptureHoldRequest,
  CreateCreditRequest,
  CreateHoldRequest,
  CreateRefundRequest,
  FundInternalAccountRequest,
  GetInternalAccountRequest,
  GetTransactionRequest,
  ListInternalAccountsRequest,
  ListTransactionsQuery,
  ReleaseHoldRequest,
  SetInternalAccountStatusRequest,
  SetDailyVolumeLimitRequest,
  SetVelocityLimitRequest,
  TransferInMessage,
  TransferOutMessage,
  UpdateInternalAccountPrivacyRequest,
} from './requests';

export const PAYMENTS_SUBJECTS = {
  getInternalAccount: 'payments.internal-account.get',
  listInternalAccounts: 'payments.internal-account.list',
  fundInternalAccount: 'payments.internal-account.fund',
  createHold: 'payments.hold.create',
  captureHold: 'payments.hold.capture',
  releaseHold: 'payments.hold.release',
  createRefund: 'payments.refund.create',
  /** A keyed credit to an account from the card settlement account (card credits, advices). */
  createCredit: 'payments.credit.create',
  transferOut: 'payments.transfer.out',
  transferIn: 'payments.transfer.in',
  getTransaction: 'payments.transaction.get',
  listTransactions: 'payments.transaction.list',
  setVelocityLimit: 'payments.velocity-limit.set',
  /** The platform's daily volume limit in a currency (operator-set; 429 DAILY_VOLUME_LIMIT_EXCEEDED past it). */
  setDailyVolumeLimit: 'payments.daily-volume-limit.set',
  /** Embedded wallet privacy; the gateway calls it after the signed retry of PATCH /internal-accounts/{id}. */
  updateInternalAccountPrivacy: 'payments.internal-account.update-privacy',
  /** Sandbox simulator: freeze, unfreeze or close an internal account (sandbox tokens only). */
  setInternalAccountStatus: 'payments.internal-account.set-status',
} as const;

export interface PaymentsContract {
  [PAYMENTS_SUBJECTS.getInternalAccount]: { request: GetInternalAccountRequest; reply: InternalAccountRecord };
  [PAYMENTS_SUBJECTS.updateInternalAccountPrivacy]: { request: UpdateInternalAccountPrivacyRequest; reply: SignedRetryOutcome<InternalAccount> };
  [PAYMENTS_SUBJECTS.listInternalAccounts]: { request: ListInternalAccountsRequest; reply: Page<InternalAccount> };
  [PAYMENTS_SUBJECTS.fundInternalAccount]: { request: FundInternalAccountRequest; reply: InternalAccount };
  [PAYMENTS_SUBJECTS.setInternalAccountStatus]: { request: SetInternalAccountStatusRequest; reply: InternalAccount };
  [PAYMENTS_SUBJECTS.createHold]: { request: CreateHoldRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.captureHold]: { request: CaptureHoldRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.releaseHold]: { request: ReleaseHoldRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.createRefund]: { request: CreateRefundRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.createCredit]: { request: CreateCreditRequest; reply: Credit };
  [PAYMENTS_SUBJECTS.transferOut]: { request: TransferOutMessage; reply: SignedRetryOutcome<Transaction> };
  [PAYMENTS_SUBJECTS.transferIn]: { request: TransferInMessage; reply: Transaction };
  [PAYMENTS_SUBJECTS.getTransaction]: { request: GetTransactionRequest; reply: Transaction };
  [PAYMENTS_SUBJECTS.listTransactions]: { request: ListTransactionsQuery; reply: Page<Transaction> };
  [PAYMENTS_SUBJECTS.setVelocityLimit]: { request: SetVelocityLimitRequest; reply: VelocityLimit };
  [PAYMENTS_SUBJECTS.setDailyVolumeLimit]: { request: SetDailyVolumeLimitRequest; reply: DailyVolumeLimit };
}
