import { Column, Entity, PrimaryColumn } from 'typeorm';
import { amountColumn } from '@paykit/persistence';
import { PaymentRail, PurposeOfPayment, RailSelectionMode, RefundReason, RefundStatus, TransactionStatus, TransactionType } from '@paykit/contracts';

/** A transfer between an internal and an external account, with its status lifecycle. */
@Entity({ name: 'payment_transaction' })
export class PaymentTransactionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ type: 'text' })
  type!: TransactionType;

  @Column({ type: 'text' })
  status!: TransactionStatus;

  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId!: string | null;

  /** The platform's id of the customer when the transfer was made; null for the platform's own accounts. */
  @Column({ name: 'platform_customer_id', type: 'text', nullable: true })
  platformCustomerId!: string | null;

  @Column({ name: 'internal_account_id', type: 'text' })
  internalAccountId!: string;

  /** The external account of a transfer, or the account a quote pays (internal or external); null for a UMA counterparty. */
  @Column({ name: 'external_account_id', type: 'text', nullable: true })
  externalAccountId!: string | null;

  @Column({ name: 'currency_code', type: 'text' })
  currencyCode!: string;

  @Column({ type: 'bigint', transformer: amountColumn })
  amount!: bigint;

  /** OUTGOING: the hold on the internal account until the transfer settles. */
  @Column({ name: 'hold_id', type: 'text', nullable: true })
  holdId!: string | null;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** The sandbox rail's own cause (`TransferFailureReason`); the API's reason is mapped from it. */
  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  /** Transfers to a wallet: the network the address lives on, and the on-chain transfer's hash. */
  @Column({ name: 'crypto_network', type: 'text', nullable: true })
  cryptoNetwork!: string | null;

  @Column({ name: 'onchain_transaction_hash', type: 'text', nullable: true })
  onChainTransactionHash!: string | null;

  /** OUTGOING: the rail of the payout, and whether the request named it (MANUAL) or the service chose it (AUTO). */
  @Column({ name: 'payment_rail', type: 'text', nullable: true })
  paymentRail!: PaymentRail | null;

  @Column({ name: 'rail_selection_mode', type: 'text', nullable: true })
  railSelectionMode!: RailSelectionMode | null;

  @Column({ name: 'remittance_information', type: 'text', nullable: true })
  remittanceInformation!: string | null;

  @Column({ name: 'purpose_of_payment', type: 'text', nullable: true })
  purposeOfPayment!: PurposeOfPayment | null;

  /** The quote a cross-currency payment executes. */
  @Column({ name: 'quote_id', type: 'text', nullable: true })
  quoteId!: string | null;

  /** Cross-currency payments: what the counterparty receives (null: the sent currency and amount). */
  @Column({ name: 'received_currency_code', type: 'text', nullable: true })
  receivedCurrencyCode!: string | null;

  @Column({ name: 'received_amount', type: 'bigint', nullable: true, transformer: amountColumn })
  receivedAmount!: bigint | null;

  /** The UMA address of the counterparty of a UMA payment. */
  @Column({ name: 'counterparty_uma_address', type: 'text', nullable: true })
  counterpartyUmaAddress!: string | null;

  /** When the platform confirmed delivering the receipt to its customer (POST /transactions/{id}/confirm). */
  @Column({ name: 'receipt_delivery_confirmed_at', type: 'timestamptz', nullable: true })
  receiptDeliveryConfirmedAt!: Date | null;

  /** What the counterparty shared about itself (UMA payments). */
  @Column({ name: 'counterparty_information', type: 'jsonb', nullable: true })
  counterpartyInformation!: Record<string, unknown> | null;

  /** Cross-currency payments: the fees the quote locked (all of them, and the platform's part), in the sent currency. */
  @Column({ type: 'bigint', nullable: true, transformer: amountColumn })
  fees!: bigint | null;

  @Column({ name: 'platform_fees', type: 'bigint', nullable: true, transformer: amountColumn })
  platformFees!: bigint | null;

  /** A transfer requested without an Idempotency-Key: the hash of its request, which a client's automatic retry of it matches. */
  @Column({ name: 'request_fingerprint', type: 'text', nullable: true })
  requestFingerprint!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt!: Date | null;

  /** The refund of a payment that failed or was cancelled after its money moved (all null: none). */
  @Column({ name: 'refund_reference', type: 'text', nullable: true })
  refundReference!: string | null;

  @Column({ name: 'refund_status', type: 'text', nullable: true })
  refundStatus!: RefundStatus | null;

  @Column({ name: 'refund_reason', type: 'text', nullable: true })
  refundReason!: RefundReason | null;

  @Column({ name: 'refund_initiated_at', type: 'timestamptz', nullable: true })
  refundInitiatedAt!: Date | null;

  @Column({ name: 'refund_settled_at', type: 'timestamptz', nullable: true })
  refundSettledAt!: Date | null;

  /** When the receiving bank returned the completed payout (COMPLETED, then FAILED); null: not returned. */
  @Column({ name: 'returned_at', type: 'timestamptz', nullable: true })
  returnedAt!: Date | null;
}
