import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  amountFromWire,
  ApprovePaymentMessage,
  CallerContext,
  ConfirmReceiptDeliveryMessage,
  newId,
  ReasonMessage,
  SandboxUmaReceiveRequest,
  Transaction,
  WebhookDecisionMessage,
  WebhookDecisionOutcome,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, JobScheduler, Outbox, TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config/payments-config';
import { CustomersClient } from '../counterparties/customers.client';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LedgerService, NEW_MOVEMENT_STATUSES } from '../ledger/ledger.service';
import { QuotesService } from '../quotes/quotes.service';
import { sandboxUmaReceiver } from '../receiver-lookup/receiver-lookup.sandbox';
import { ReceiverLookupRepository } from '../receiver-lookup/receiver-lookup.repository';
import { parseUmaAddress } from '../receiver-lookup/uma-address';
import { PaymentTransactionEntity } from '../transfers/entities/payment-transaction.entity';
import { transactionRefundEvent, transactionStatusEvent } from '../transfers/transaction.mapper';
import { TransactionsRepository } from '../transfers/transactions.repository';
import { TransfersService } from '../transfers/transfers.service';
import { DECISION_DEADLINE_JOB, SETTLE_INCOMING_REFUND_JOB } from './incoming-payments.jobs';
import { SANDBOX_INCOMING_REFUND_MS, sandboxRefundedSender } from './incoming-payments.sandbox';
import { IncomingPaymentsRepository } from './incoming-payments.repository';
import { accountNotActive } from '../internal-accounts/internal-accounts.errors';

/** What a sandbox sender's institution asks of every receiver it pays. */
const REQUESTED_RECEIVER_FIELDS = [
  { name: 'FULL_NAME', mandatory: true },
  { name: 'BIRTH_DATE', mandatory: false },
];

/**
 * Incoming UMA payments and the platform's decisions. A received payment waits PENDING for the
 * platform's approval (`INCOMING_PAYMENT.PENDING` carries the sender's information and the
 * receiver data it asks for); approval credits the receiving account and completes it,
 * rejection or the deadline fail it with nothing moved. Also the receipt confirmation and the
 * cancellation of a payment that has not settled.
 */
@Injectable()
export class IncomingPaymentsService implements OnModuleInit {
  constructor(
    private readonly decisions: IncomingPaymentsRepository,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transfers: TransfersService,
    private readonly quotes: QuotesService,
    private readonly directory: ReceiverLookupRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly ledger: LedgerRepository,
    private readonly ledgerService: LedgerService,
    private readonly currencies: CurrencyCatalog,
    private readonly scheduler: JobScheduler,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
    private readonly customers: CustomersClient,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(DECISION_DEADLINE_JOB, async (payload, manager) => {
      const now = this.clock.now();
      const decided = await this.decisions.decide(manager, payload.platformId, payload.transactionId, 'TIMED_OUT', now);
      if (decided) {
        await this.fail(manager, payload.platformId, payload.transactionId, 'PAYMENT_APPROVAL_TIMED_OUT');
        return;
      }
      const current = await this.decisions.find(payload.platformId, payload.transactionId, manager);
      // Ran a moment before the deadline: fail so the scheduler runs it again.
      if (current?.status === 'AWAITING') throw new Error(`Decision on ${payload.transactionId} is due at ${current.decideBy.toISOString()}`);
    });
    this.scheduler.register(SETTLE_INCOMING_REFUND_JOB, async (payload, manager) => {
      // Moves only a refund still PENDING: a retried job announces and settles nothing twice.
      const settled = await this.transactionsRepo.moveRefund(manager, payload.platformId, payload.transactionId, 'FAILED', {
        from: 'PENDING',
        to: 'COMPLETED',
        reason: 'TRANSACTION_FAILED',
      });
      if (settled) await this.outbox.add(manager, transactionRefundEvent(payload.platformId, await this.transfers.toResource(settled)));
    });
  }

  /** POST /sandbox/uma/receive: a sandbox counterparty pays a customer of the caller's platform. */
  async sandboxReceive(ctx: CallerContext, request: SandboxUmaReceiveRequest): Promise<Transaction> {
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'Sandbox payments take a sandbox token');
    const sender = parseUmaAddress(request.senderUmaAddress, 'senderUmaAddress');
    const counterparty = sandboxUmaReceiver(sender) ?? sandboxRefundedSender(sender);
    if (!counterparty) throw new ServiceError('UMA_NOT_FOUND', `${sender} is not a sandbox UMA counterparty`, { field: 'senderUmaAddress' });
    const customerId = await this.receivingCustomer(ctx, request);
    if (!(await this.currencies.find(request.receivingCurrencyCode))) {
      throw new ServiceError('INVALID_CURRENCY', `Unknown currency ${request.receivingCurrencyCode}`, { field: 'receivingCurrencyCode' });
    }
    const [account] = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId, currency: request.receivingCurrencyCode, type: 'INTERNAL_FIAT', limit: 1 });
    if (!account)
      throw new ServiceError('INVALID_CURRENCY', `Customer ${customerId} has no ${request.receivingCurrencyCode} account to receive in`, { field: 'receivingCurrencyCode' });
    if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
    // Asked before the transaction (never another service inside one): the platform's id of the customer.
    const platformCustomerId = await this.customers.platformCustomerIdOf(ctx, customerId);
    const now = this.clock.now();
    return this.transactions.run(async (manager) => {
      const entity = await this.transactionsRepo.insert(manager, {
        id: newId('Transaction'),
        platformId: ctx.platformId,
        type: 'INCOMING',
        status: 'PENDING',
        customerId,
        platformCustomerId,
        internalAccountId: account.id,
        externalAccountId: null,
        currencyCode: request.receivingCurrencyCode,
        amount: amountFromWire(request.receivingCurrencyAmount),
        holdId: null,
        description: null,
        failureReason: null,
        paymentRail: null,
        railSelectionMode: null,
        remittanceInformation: null,
        purposeOfPayment: null,
        counterpartyUmaAddress: sender,
        counterpartyInformation: { FULL_NAME: counterparty.name, UMA_ADDRESS: sender },
      });
      const decideBy = new Date(now.getTime() + this.config.incomingApprovalWindowSeconds * 1000);
      await this.decisions.insert(manager, { transactionId: entity.id, platformId: ctx.platformId, decideBy, requestedFields: REQUESTED_RECEIVER_FIELDS });
      await this.scheduler.schedule(manager, {
        kind: DECISION_DEADLINE_JOB,
        platformId: ctx.platformId,
        payload: { platformId: ctx.platformId, transactionId: entity.id },
        delayMs: this.config.incomingApprovalWindowSeconds * 1000,
        dedupeKey: `${entity.id}:decision-deadline`,
      });
      const transaction = await this.transfers.toResource(entity);
      await this.announce(manager, ctx.platformId, { ...transaction, requestedReceiverCustomerInfoFields: REQUESTED_RECEIVER_FIELDS });
      return transaction;
    });
  }

  private async receivingCustomer(ctx: CallerContext, request: SandboxUmaReceiveRequest): Promise<string> {
    if (request.receiverUmaAddress === undefined && request.customerId === undefined) {
      throw ServiceError.invalidInput([{ field: 'receiverUmaAddress', message: 'give receiverUmaAddress or customerId' }]);
    }
    if (request.receiverUmaAddress !== undefined) {
      const address = parseUmaAddress(request.receiverUmaAddress, 'receiverUmaAddress');
      const entry = await this.directory.findByAddress(ctx.platformId, address);
      if (!entry || entry.platformId !== ctx.platformId) throw new ServiceError('UMA_NOT_FOUND', `No customer of the platform at ${address}`, { field: 'receiverUmaAddress' });
      if (request.customerId !== undefined && request.customerId !== entry.customerId) {
        throw ServiceError.invalidInput([{ field: 'customerId', message: 'customerId is not the customer at receiverUmaAddress' }]);
      }
      return entry.customerId;
    }
    const [anyAccount] = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId: request.customerId, limit: 1 });
    if (!anyAccount) throw new ServiceError('USER_NOT_FOUND', `Customer ${request.customerId} not found`, { field: 'customerId' });
    return request.customerId!;
  }

  /**
   * Approves a payment waiting for the platform: the receiving account is credited and it
   * completes. An accepted payment that cannot complete (in the sandbox, from a refunded sender:
   * see incoming-payments.sandbox.ts) fails with nothing credited, and the sender is refunded:
   * FAILED and REFUND_PENDING now, REFUND_COMPLETED once the refund settles.
   */
  async approve(ctx: CallerContext, request: ApprovePaymentMessage): Promise<Transaction> {
    const found = await this.requireTransaction(ctx.platformId, request.transactionId);
    const cannotComplete = this.sandbox.applyTo(ctx) && found.counterpartyUmaAddress !== null ? sandboxRefundedSender(found.counterpartyUmaAddress) : undefined;
    return this.transactions.run(async (manager) => {
      const decided = await this.decisions.decide(manager, ctx.platformId, request.transactionId, 'APPROVED', this.clock.now(), {
        receiverCustomerInfo: request.receiverCustomerInfo,
      });
      if (!decided) throw await this.notAwaiting(manager, ctx.platformId, request.transactionId);
      if (cannotComplete) return this.failAndRefund(manager, ctx.platformId, request.transactionId, cannotComplete.failureReason);
      const current = (await this.transactionsRepo.findById(ctx.platformId, request.transactionId, manager, true))!;
      // Checked under the account's lock: a closed account receives nothing.
      await this.ledgerService.lockAccountWithin(manager, ctx.platformId, current.internalAccountId, NEW_MOVEMENT_STATUSES);
      await this.ledger.creditFromSystem(manager, {
        platformId: ctx.platformId,
        kind: 'UMA_RECEIVE',
        referenceId: current.id,
        accountId: current.internalAccountId,
        currency: current.currencyCode,
        from: 'EXTERNAL_CLEARING',
        amount: current.amount,
      });
      return this.move(manager, ctx.platformId, current, 'COMPLETED', null);
    });
  }

  /**
   * The platform answered the PENDING webhook: 200 approves (with the receiver data of its body),
   * 403 rejects. A payment decided otherwise meanwhile (an API call, the deadline) keeps that decision.
   */
  async webhookDecision(ctx: CallerContext, request: WebhookDecisionMessage): Promise<WebhookDecisionOutcome> {
    try {
      if (request.approved)
        await this.approve(ctx, { transactionId: request.transactionId, ...(request.receiverCustomerInfo ? { receiverCustomerInfo: request.receiverCustomerInfo } : {}) });
      else await this.reject(ctx, { transactionId: request.transactionId, reason: 'The platform answered the webhook with 403' });
      return { decided: true };
    } catch (error) {
      if (error instanceof ServiceError && (error.code === 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' || error.code === 'TRANSACTION_NOT_FOUND')) return { decided: false };
      throw error;
    }
  }

  /** Rejects a payment waiting for the platform: it fails and nothing moves. */
  async reject(ctx: CallerContext, request: ReasonMessage): Promise<Transaction> {
    await this.requireTransaction(ctx.platformId, request.transactionId);
    return this.transactions.run(async (manager) => {
      const decided = await this.decisions.decide(manager, ctx.platformId, request.transactionId, 'REJECTED', this.clock.now(), { reason: request.reason });
      if (!decided) throw await this.notAwaiting(manager, ctx.platformId, request.transactionId);
      return this.fail(manager, ctx.platformId, request.transactionId, 'COMPLIANCE_REJECTED');
    });
  }

  async confirm(ctx: CallerContext, request: ConfirmReceiptDeliveryMessage): Promise<Transaction> {
    const at = request.receiptDeliveryConfirmedAt ? new Date(request.receiptDeliveryConfirmedAt) : this.clock.now();
    const updated = await this.transactionsRepo.confirmReceipt(ctx.platformId, request.transactionId, at);
    if (!updated) throw new ServiceError('TRANSACTION_NOT_FOUND', `Transaction ${request.transactionId} not found`);
    return this.transfers.toResource(updated);
  }

  /**
   * Cancels a payment that has not settled: a quote's payout still PENDING or PROCESSING (refunded
   * to its source, see QuotesService.cancel), a transfer still PENDING (its money goes back), or
   * an incoming payment still waiting for a decision.
   */
  async cancel(ctx: CallerContext, request: ReasonMessage): Promise<Transaction> {
    const current = await this.requireTransaction(ctx.platformId, request.transactionId);
    if (current.quoteId !== null && current.type === 'OUTGOING') return this.quotes.cancel(ctx, current.quoteId);
    if (current.status !== 'PENDING') {
      throw new ServiceError('TRANSACTION_NOT_CANCELLABLE', `Transaction ${current.id} is ${current.status}; only a PENDING payment can be cancelled`, { status: current.status });
    }
    if (current.counterpartyUmaAddress !== null && current.type === 'INCOMING') {
      return this.transactions.run(async (manager) => {
        const decided = await this.decisions.decide(manager, ctx.platformId, current.id, 'REJECTED', this.clock.now(), { reason: request.reason ?? 'cancelled' });
        if (!decided) throw new ServiceError('TRANSACTION_NOT_CANCELLABLE', `Transaction ${current.id} was already decided`);
        return this.fail(manager, ctx.platformId, current.id, 'CANCELLED');
      });
    }
    return this.transactions.run(async (manager) => {
      await this.transfers.advance({ platformId: ctx.platformId, transactionId: current.id, status: 'FAILED', failureReason: 'CANCELLED', next: [] }, manager);
      const after = (await this.transactionsRepo.findById(ctx.platformId, current.id, manager))!;
      if (after.failureReason !== 'CANCELLED') throw new ServiceError('TRANSACTION_NOT_CANCELLABLE', `Transaction ${current.id} settled before it could be cancelled`);
      return this.transfers.toResource(after);
    });
  }

  /** An accepted payment that cannot complete: FAILED with nothing credited, and the sender's refund initiated (settled by SETTLE_INCOMING_REFUND_JOB). */
  private async failAndRefund(manager: EntityManager, platformId: string, transactionId: string, reason: string): Promise<Transaction> {
    await this.fail(manager, platformId, transactionId, reason);
    const pending = (await this.transactionsRepo.moveRefund(manager, platformId, transactionId, 'FAILED', { from: null, to: 'PENDING', reason: 'TRANSACTION_FAILED' }))!;
    const transaction = await this.transfers.toResource(pending);
    await this.outbox.add(manager, transactionRefundEvent(platformId, transaction));
    await this.scheduler.schedule(manager, {
      kind: SETTLE_INCOMING_REFUND_JOB,
      platformId,
      payload: { platformId, transactionId },
      delayMs: SANDBOX_INCOMING_REFUND_MS,
      sandboxDelay: true,
      dedupeKey: `${transactionId}:settle-refund`,
    });
    return transaction;
  }

  private async fail(manager: EntityManager, platformId: string, transactionId: string, reason: string): Promise<Transaction> {
    const current = (await this.transactionsRepo.findById(platformId, transactionId, manager, true))!;
    return this.move(manager, platformId, current, 'FAILED', reason);
  }

  private async move(manager: EntityManager, platformId: string, current: PaymentTransactionEntity, to: 'COMPLETED' | 'FAILED', reason: string | null): Promise<Transaction> {
    const updated = await this.transactionsRepo.transition(manager, platformId, current.id, current.status, to, reason);
    if (!updated) throw new Error(`Transaction ${current.id} changed status concurrently`);
    const transaction = await this.transfers.toResource(updated);
    await this.announce(manager, platformId, transaction);
    return transaction;
  }

  private async notAwaiting(manager: EntityManager, platformId: string, transactionId: string): Promise<ServiceError> {
    const decision = await this.decisions.find(platformId, transactionId, manager);
    const state = !decision
      ? 'does not wait for the platform'
      : decision.status === 'AWAITING'
        ? 'is past its decision deadline'
        : `was already ${decision.status.toLowerCase().replace('_', ' ')}`;
    return new ServiceError(
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      `Transaction ${transactionId} ${state}`,
      decision ? { decision: decision.status, decideBy: decision.decideBy.toISOString() } : {},
    );
  }

  private async requireTransaction(platformId: string, transactionId: string): Promise<PaymentTransactionEntity> {
    const current = await this.transactionsRepo.findById(platformId, transactionId);
    if (!current) throw new ServiceError('TRANSACTION_NOT_FOUND', `Transaction ${transactionId} not found`);
    return current;
  }

  private async announce(manager: EntityManager, platformId: string, transaction: Transaction): Promise<void> {
    await this.outbox.add(manager, transactionStatusEvent(platformId, transaction));
  }
}
