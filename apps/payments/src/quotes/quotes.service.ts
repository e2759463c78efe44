import { createHash } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  amountFromWire,
  amountToWire,
  fitsOnWire,
  CallerContext,
  CreateQuoteMessage,
  CustomerInfoFieldName,
  FeeConfig,
  ExecuteQuoteMessage,
  newId,
  PayerDataFieldRequirement,
  Quote,
  PurposeOfPayment,
  QuoteFailureReason,
  SandboxSendRequest,
  SignedRetryInput,
  SignedRetryOutcome,
  Transaction,
  TransactionStatus,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { CompositeStatement, IdempotencyStore, JobScheduler, Outbox, preparedStatement, requestHash, TransactionRunner, Clock, Statement } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient, signedAction, walletAuthOverTransport } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config/payments-config';
import { CustomersClient } from '../counterparties/customers.client';
import { ExternalAccountsClient } from '../counterparties/external-accounts.client';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { ExchangeRatesService, PricedCorridor } from '../exchange-rates/exchange-rates.service';
import { configuredPlatformFee, Corridor, PlatformFee, Price, priceReceiving, priceSending } from '../exchange-rates/pricing';
import { InternalAccountWithBalance } from '../internal-accounts/entities/internal-account.entity';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { InternalAccountsService } from '../internal-accounts/internal-accounts.service';
import { ledgerRefusalOf } from '../ledger/ledger.repository';
import { NEW_MOVEMENT_STATUSES } from '../ledger/ledger.service';
import { PaymentTransactionEntity } from '../transfers/entities/payment-transaction.entity';
import { transactionRefundEvent, transactionStatusEvent } from '../transfers/transaction.mapper';
import { NewTransaction, RefundMove, TransactionsRepository } from '../transfers/transactions.repository';
import { TransfersService } from '../transfers/transfers.service';
import { QuoteDestinationKind, QuoteEntity } from './entities/quote.entity';
import { QuoteAuthorization } from './quote-authorization';
import { QuoteLedger, QuoteMove } from './quote-ledger';
import { toQuote } from './quote.mapper';
import { ADVANCE_QUOTE_JOB, AdvanceQuoteJob, EXPIRE_QUOTE_JOB } from './quotes.jobs';
import { NewQuote, QuoteRow, QuotesRepository, QuoteWithTransaction } from './quotes.repository';
import { CANCELLATION_STEPS, QUOTE_SUCCESS, quoteOutcome, QuoteStep } from './quotes.sandbox';
import { accountNotFound, accountNotActive } from '../internal-accounts/internal-accounts.errors';
import { isClientRetry, lockFingerprint, requestFingerprint, retryWindowStart } from '../client-retries';
import { refusedStatement, refuseWhen } from '../refused-statement';

/** Where a quote pays, once resolved (before pricing). */
export interface ResolvedDestination {
  kind: QuoteDestinationKind;
  currency: string;
  accountId: string | null;
  umaAddress: string | null;
  /** The sandbox outcome key, for sandbox callers paying an external account. */
  sandboxOutcome: string | null;
  counterpartyInformation?: Record<string, unknown>;
}

/** A receiver lookup a quote names by `lookupId`: its receiver (UMA address or external account id) and the payer data it asks for. */
export interface QuoteLookup {
  kind: 'UMA_ADDRESS' | 'EXTERNAL_ACCOUNT';
  target: string;
  requiredPayerDataFields: PayerDataFieldRequirement[];
}

/** Resolves UMA receivers and kept lookups for quotes (the receiver-lookup feature provides it). */
export interface UmaReceiverResolver {
  resolveForQuote(ctx: CallerContext, umaAddress: string, currency: string | undefined): Promise<ResolvedDestination>;
  findLookup(platformId: string, lookupId: string): Promise<QuoteLookup | undefined>;
}
export const UMA_RECEIVER_RESOLVER = Symbol('UMA_RECEIVER_RESOLVER');

/** What a quote pays from, once resolved. */
interface ResolvedSource {
  /** ACCOUNT sources: the account debited. */
  account: InternalAccountWithBalance | null;
  /** REALTIME_FUNDING sources: the account the payment is recorded against. */
  fundingAccountId: string | null;
  currency: string;
  customerId: string | null;
}

/** Same-currency payments (a UMA receiver in the sender's currency) convert at 1 with no conversion fee. */
function sameCurrencyCorridor(currency: string, maxTransferAmount: bigint): Corridor {
  return {
    source: currency,
    destination: currency,
    rail: 'BANK_TRANSFER',
    rateMicros: 1_000_000n,
    fixedFee: 0n,
    variableFeeBps: 0n,
    minSendingAmount: 1n,
    maxSendingAmount: maxTransferAmount,
  };
}

/**
 * Cross-currency quotes: price a corridor and lock it until `expiresAt`, then execute once.
 * Execution is one database transaction: the quote's conditional PENDING -> PROCESSING, the
 * source leg on the ledger (the conditional balance update refuses an overdraft), the
 * transaction, its event and the next step on the scheduler; later steps post the destination
 * leg, or refund the source leg exactly once (each step moves the transaction from the status
 * it expects, or does nothing).
 */
@Injectable()
export class QuotesService implements OnModuleInit {
  /** What `prepareSteps` read for a batch's transaction (its EntityManager), until each step takes its own. */
  private readonly preparedSteps = new WeakMap<EntityManager, Map<string, QuoteWithTransaction | undefined>>();

  constructor(
    private readonly quotes: QuotesRepository,
    private readonly rates: ExchangeRatesService,
    private readonly accounts: InternalAccountsRepository,
    private readonly internalAccounts: InternalAccountsService,
    private readonly quoteLedger: QuoteLedger,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transfers: TransfersService,
    private readonly currencies: CurrencyCatalog,
    private readonly customers: CustomersClient,
    private readonly externalAccounts: ExternalAccountsClient,
    private readonly idempotency: IdempotencyStore,
    private readonly scheduler: JobScheduler,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly dataSource: DataSource,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(UMA_RECEIVER_RESOLVER) private readonly umaReceivers: UmaReceiverResolver,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
    private readonly authorization: QuoteAuthorization,
  ) {}

  onModuleInit(): void {
    this.authorization.bind(this);
    this.scheduler.register(
      ADVANCE_QUOTE_JOB,
      (payload, manager) => this.advance(payload, manager),
      (payloads, manager) => this.prepareSteps(payloads, manager),
    );
    this.scheduler.register(EXPIRE_QUOTE_JOB, async (payload, manager) => {
      await this.quotes.expire(manager, payload.platformId, payload.quoteId, this.clock.now());
    });
  }

  async create(ctx: CallerContext, request: CreateQuoteMessage): Promise<Quote> {
    const { idempotencyKey, retryOf, ...body } = request;
    const hash = requestHash({ operation: 'quote-create', ...body });
    if (idempotencyKey) {
      const earlier = await this.idempotency.replay<Quote>(this.dataSource.manager, ctx.platformId, idempotencyKey, hash);
      if (earlier) return earlier;
    }
    // Without a key, a client's retry of a quote executed at its creation answers that quote as it is now.
    const fingerprint = this.fingerprintOf(request);
    if (fingerprint && isClientRetry(retryOf)) {
      const earlier = await this.retried(ctx, fingerprint);
      if (earlier) return this.toResource(earlier, this.clock.now());
    }
    const lookupRead = request.lookupId !== undefined ? this.umaReceivers.findLookup(ctx.platformId, request.lookupId) : Promise.resolve(undefined);
    lookupRead.catch(() => undefined);
    const source = await this.resolveSource(ctx, request);
    const lookup = await lookupRead;
    const payerData = payerDataToCheck(lookup, request.senderCustomerInfo);
    // The customers service's answer (the customer's readiness, the payer data the receiver asked
    // for, and the platform's fee configs, in one ask) is asked for while the destination resolves;
    // its refusal still counts only after the destination's and the price's.
    const readiness = source.customerId
      ? this.customers.assertReady(ctx, source.customerId, source.currency, payerData).catch((error: unknown) => {
          // A customer the customers service does not know (payments still holds its accounts), named in the body.
          if (error instanceof ServiceError && error.code === 'USER_NOT_FOUND' && request.source.customerId !== undefined) throw unknownSourceCustomer(source.customerId!);
          throw error;
        })
      : undefined;
    const feeConfigs: Promise<FeeConfig[]> = readiness ? readiness.then((customer) => customer.feeConfigs ?? []) : this.customers.feeConfigs(ctx);
    feeConfigs.catch(() => undefined);
    const destination = await this.resolveDestination(ctx, request, source.customerId);
    this.assertLookupOf(request.lookupId, lookup, destination);
    if (!source.customerId && payerData.length > 0) {
      // No customer to read them from: the platform sends them in senderCustomerInfo.
      throw new ServiceError('MISSING_MANDATORY_USER_INFO', `The receiver asks for payer data not given in senderCustomerInfo: ${payerData.join(', ')}`, {
        missingFields: payerData,
      });
    }
    if (destination.kind === 'INTERNAL_ACCOUNT' && source.account?.id === destination.accountId) {
      throw new ServiceError('SELF_PAYMENT', 'A quote cannot pay the account it is paid from');
    }
    if (request.immediatelyExecute && source.account?.type === 'EMBEDDED_WALLET') {
      throw ServiceError.invalidInput([
        { field: 'immediatelyExecute', message: 'immediatelyExecute is not available for an EMBEDDED_WALLET source: create the quote, then execute it with the wallet signature' },
      ]);
    }
    const priced = await this.corridorFor(source.currency, destination.currency, request.destination.paymentRail);
    // An override in the request replaces the platform's configured fee (the reference's platformFeeOverride).
    const price = this.price(priced, request, request.platformFeeOverride ? undefined : configuredPlatformFee(await feeConfigs, source.currency, destination.currency));
    const customer = await readiness;
    // A customer subject to Strong Customer Authentication (an EEA address) authorizes the payment; an embedded wallet's signature already does.
    const scaRegulated = customer?.scaRegulated === true && source.account?.type !== 'EMBEDDED_WALLET';

    const now = this.clock.now();
    const id = newId('Quote');
    const expiresAt = new Date(now.getTime() + this.config.quoteValiditySeconds * 1000);
    // Every refusal came first: only a quote that will exist gets its wallet challenge.
    const walletSignature =
      source.account?.type === 'EMBEDDED_WALLET'
        ? await this.issueExecutionChallenge(ctx, { id, sourceAccountId: source.account.id, sendingAmount: price.sending, sourceCurrency: source.currency, expiresAt })
        : undefined;
    const entity: Parameters<QuotesRepository['insert']>[1] = {
      id,
      platformId: ctx.platformId,
      sourceType: request.source.sourceType,
      sourceAccountId: source.account?.id ?? null,
      fundingAccountId: source.fundingAccountId,
      customerId: source.customerId,
      sourceCurrency: source.currency,
      cryptoNetwork: request.source.cryptoNetwork ?? null,
      destinationType: request.destination.destinationType,
      destinationKind: destination.kind,
      destinationAccountId: destination.accountId,
      destinationUmaAddress: destination.umaAddress,
      destinationCurrency: destination.currency,
      paymentRail: priced.corridor.rail,
      lockedSide: request.lockedCurrencySide,
      sendingAmount: price.sending,
      receivingAmount: price.receiving,
      serviceFee: price.serviceFee,
      platformFee: price.platformFee,
      rateMicros: priced.corridor.rateMicros,
      fixedFee: priced.corridor.fixedFee,
      variableFeeBps: Number(priced.corridor.variableFeeBps),
      transactionId: newId('Transaction'),
      sandboxOutcome: destination.sandboxOutcome,
      fundingReference: request.source.sourceType === 'REALTIME_FUNDING' ? fundingReference(id) : null,
      description: request.description ?? null,
      extra: {
        ...(request.remittanceInformation !== undefined ? { remittanceInformation: request.remittanceInformation } : {}),
        ...(request.purposeOfPayment !== undefined ? { purposeOfPayment: request.purposeOfPayment } : {}),
        ...(request.lookupId !== undefined ? { lookupId: request.lookupId } : {}),
        ...(customer?.platformCustomerId !== undefined ? { platformCustomerId: customer.platformCustomerId } : {}),
        ...(request.destination.paymentRail !== undefined ? { railChosen: true } : {}),
        ...(request.senderCustomerInfo !== undefined ? { senderCustomerInfo: request.senderCustomerInfo } : {}),
        ...(destination.counterpartyInformation ? { counterpartyInformation: destination.counterpartyInformation } : {}),
        ...(walletSignature ? { walletSignature } : {}),
        ...(scaRegulated ? { scaRegulated: true, ...(request.scaFactor !== undefined ? { scaFactor: request.scaFactor } : {}) } : {}),
      },
      createdAt: now,
      expiresAt,
    };
    // A real-time funded quote executes when its funds arrive, never here. An executing quote is
    // created PROCESSING: it never waits for execution, so it needs no expiry job either.
    if (request.immediatelyExecute === true && request.source.sourceType === 'ACCOUNT' && !scaRegulated) {
      return this.runExecution(ctx, fingerprint ? { ...entity, requestFingerprint: fingerprint } : entity, false, idempotencyKey, hash, now, retryOf);
    }
    // The quote and its expiry job: one statement (no transaction without an Idempotency-Key).
    const expiry = this.scheduler.scheduleStatement([
      {
        kind: EXPIRE_QUOTE_JOB,
        platformId: ctx.platformId,
        payload: { platformId: ctx.platformId, quoteId: id },
        delayMs: this.config.quoteValiditySeconds * 1000,
        dedupeKey: `${id}:expire`,
      },
    ]);
    // A real-time funded quote of a regulated customer waits for its FUNDING challenge: no payment instructions before it.
    const funding = scaRegulated && request.source.sourceType === 'REALTIME_FUNDING' ? await this.authorization.firstChallenge(ctx, entity) : undefined;
    if (funding) entity.extra.sca = funding;
    let inserted: QuoteEntity | undefined;
    const answer = await this.idempotency.runOnceInOneStatement(ctx.platformId, idempotencyKey, hash, async (manager) => {
      inserted = await this.quotes.insert(manager, entity, [expiry], funding !== undefined);
      return this.toResource(inserted, now);
    });
    if (inserted && funding) await this.authorization.created(ctx, inserted);
    // immediatelyExecute for a regulated customer: the execution waits for its challenges.
    if (inserted && scaRegulated && request.immediatelyExecute === true && request.source.sourceType === 'ACCOUNT') {
      return (await this.authorization.begin(ctx, inserted)) ?? this.executeAuthorized(ctx, inserted);
    }
    return answer;
  }

  /** Executes a quote whose Strong Customer Authentication is complete (or that needed no challenge). */
  executeAuthorized(ctx: CallerContext, quote: QuoteEntity): Promise<Quote> {
    return this.executeOnce(ctx, quote, undefined, requestHash({ operation: 'quote-execute', quoteId: quote.id }));
  }

  /**
   * The fingerprint of a quote executed at its creation without an Idempotency-Key (`origin`:
   * `agent:<agentId>` for an agent's route), which a client's automatic retry of it matches (see
   * client-retries.ts); none for any other quote (nothing moves at its creation, or the key decides).
   */
  fingerprintOf(request: CreateQuoteMessage, origin?: string): string | undefined {
    const { idempotencyKey, retryOf: _retryOf, ...body } = request;
    if (idempotencyKey || request.immediatelyExecute !== true || request.source.sourceType !== 'ACCOUNT') return undefined;
    return requestFingerprint('quote-create', origin, body);
  }

  /** The most recent quote with this fingerprint of the last 24 hours of the platform's time. */
  retried(ctx: CallerContext, fingerprint: string, manager?: EntityManager): Promise<QuoteEntity | undefined> {
    return this.quotes.findByFingerprint(ctx.platformId, fingerprint, retryWindowStart(this.clock), manager);
  }

  /**
   * Records (or, with null, forgets) the fingerprint of the request an agent's quote was created
   * and submitted by: written in the transaction that submits it.
   */
  recordFingerprint(manager: EntityManager | undefined, ctx: CallerContext, quoteId: string, fingerprint: string | null): Promise<void> {
    return this.quotes.setFingerprint(manager ?? this.dataSource.manager, ctx.platformId, quoteId, fingerprint);
  }

  async get(ctx: CallerContext, quoteId: string): Promise<Quote> {
    return this.toResource(await this.requireFor(ctx, quoteId), this.clock.now());
  }

  /**
   * POST /quotes/{id}/execute. From an EMBEDDED_WALLET it is a signed action of the wallet: every
   * check runs first (so 4xx come before any challenge), and the money moves only once wallet-auth
   * consumed a challenge signed by a session of the wallet. Two forms share that one step: the
   * reference's one call, whose `Service-Wallet-Signature` stamps the quote's own `payloadToSign`
   * (the challenge issued with the quote), and the two-call signed retry (no signature: 202 with a
   * challenge bound to this request; the retry names it by `Request-Id`). A repeat of an answered
   * Idempotency-Key gets that answer, unsigned.
   */
  async execute(ctx: CallerContext, request: ExecuteQuoteMessage): Promise<SignedRetryOutcome<Quote>> {
    const hash = requestHash({ operation: 'quote-execute', quoteId: request.quoteId });
    const quote = await this.requireFor(ctx, request.quoteId);
    // Looked for after the quote is read: an execution under the same key that committed before
    // that read left its answer too, so a retry racing it replays instead of finding it executed.
    if (request.idempotencyKey) {
      const earlier = await this.idempotency.replay<Quote>(this.dataSource.manager, ctx.platformId, request.idempotencyKey, hash);
      if (earlier) return { result: earlier };
    }
    const now = this.clock.now();
    this.assertExecutable(quote, now);
    if (quote.sourceType === 'REALTIME_FUNDING') {
      throw ServiceError.invalidInput([
        { field: 'quoteId', message: 'a REALTIME_FUNDING quote executes when its payment instructions are paid (POST /sandbox/send in the sandbox)' },
      ]);
    }
    let walletId: string | undefined;
    if (quote.sourceAccountId !== null) {
      const account = await this.accounts.findById(ctx.platformId, quote.sourceAccountId);
      if (!account) throw accountNotFound(quote.sourceAccountId);
      if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
      if (account.type === 'EMBEDDED_WALLET') walletId = account.id;
    }
    const run = () => this.executeOnce(ctx, quote, request.idempotencyKey, hash);
    if (walletId === undefined && quote.extra.scaRegulated) {
      // A regulated customer's quote waits for its challenges (POST /quotes/{quoteId}/authorize executes it).
      const waiting = await this.authorization.begin(ctx, quote);
      if (waiting) return { result: waiting };
    }
    if (walletId === undefined) return { result: await run() };
    if (!request.signedRetry) throw new ServiceError('WALLET_SIGNATURE_MISSING', `A quote paid from embedded wallet ${walletId} must be signed by a session of the wallet`);
    return signedAction(walletAuthOverTransport(this.services), ctx, { accountId: walletId, operation: 'QUOTE_EXECUTE', input: quoteSignedRetry(quote, request.signedRetry) }, run);
  }

  /**
   * The challenge an EMBEDDED_WALLET quote carries as `payloadToSign`: bound to the wallet, the
   * quote id, amount and currency (not to an HTTP request), expiring with the quote.
   */
  private async issueExecutionChallenge(
    ctx: CallerContext,
    quote: Pick<QuoteEntity, 'id' | 'sourceAccountId' | 'sendingAmount' | 'sourceCurrency' | 'expiresAt'>,
  ): Promise<NonNullable<QuoteEntity['extra']['walletSignature']>> {
    const challenge = await walletAuthOverTransport(this.services).issue(ctx, {
      accountId: quote.sourceAccountId!,
      operation: 'QUOTE_EXECUTE',
      requestDigest: quoteExecutionDigest(quote),
      expiresAt: quote.expiresAt.toISOString(),
      parameters: { quoteId: quote.id, amount: quote.sendingAmount.toString(), currency: quote.sourceCurrency },
    });
    return { requestId: challenge.requestId, payloadToSign: challenge.payloadToSign };
  }

  private async executeOnce(ctx: CallerContext, quote: QuoteEntity, idempotencyKey: string | undefined, hash: string): Promise<Quote> {
    return this.runExecution(ctx, quote, true, idempotencyKey, hash, this.clock.now());
  }

  /**
   * An execution under the request's Idempotency-Key, answered as the quote resource. A
   * successful one is a single statement, which needs no transaction when there is no key. A new
   * keyless quote carrying its request's fingerprint runs in a transaction holding the
   * fingerprint's turn: a client's retry (`retryOf`) that came while the try it repeats was still
   * running waits for it there, then answers it instead of executing again.
   */
  private async runExecution(
    ctx: CallerContext,
    quote: NewQuote,
    existing: boolean,
    idempotencyKey: string | undefined,
    hash: string,
    now: Date,
    retryOf?: { attempt: number },
  ): Promise<Quote> {
    const fingerprint = existing ? undefined : (quote.requestFingerprint ?? undefined);
    let repeated = false;
    const work = async (manager: EntityManager) => {
      if (fingerprint) {
        await lockFingerprint(manager, ctx.platformId, fingerprint);
        const earlier = isClientRetry(retryOf) ? await this.retried(ctx, fingerprint, manager) : undefined;
        if (earlier) {
          repeated = true;
          return this.toResource(earlier, this.clock.now());
        }
      }
      return this.toResource(await this.executeWithin(manager, ctx, quote, existing, now), now);
    };
    // Every other check passed: the sending amount counts against the platform's daily volume in
    // the sending currency (429 DAILY_VOLUME_LIMIT_EXCEEDED past it), given back if the execution is refused.
    // An execution that is refused anyway (the balance does not cover it) answers its own 4xx, not the 429.
    let day: string | undefined;
    try {
      day = await this.transactions.run((manager) => this.transfers.reserveDailyVolume(manager, ctx.platformId, quote.sourceCurrency, quote.sendingAmount));
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'DAILY_VOLUME_LIMIT_EXCEEDED' || (await this.sourceCovers(ctx, quote))) throw error;
    }
    const release = async () => {
      if (day === undefined) return;
      const counted = day;
      await this.transactions.run((manager) => this.transfers.releaseDailyVolume(manager, ctx.platformId, quote.sourceCurrency, counted, quote.sendingAmount));
    };
    let answer: Quote;
    try {
      answer = await this.explainingRefusal(ctx, quote, now, () =>
        this.outcomeOf(ctx, quote).kind === 'FAILS_AT_EXECUTION' || fingerprint
          ? this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, work)
          : this.idempotency.runOnceInOneStatement(ctx.platformId, idempotencyKey, hash, work),
      );
    } catch (error) {
      await release();
      throw error;
    }
    // A retry that answered the try it repeats executed nothing: its count goes back.
    if (repeated) await release();
    return answer;
  }

  /** Whether the quote's source account has the sending amount available (else its execution is refused for funds). */
  private async sourceCovers(ctx: CallerContext, quote: NewQuote): Promise<boolean> {
    if (quote.sourceAccountId === null) return true;
    const account = await this.accounts.findById(ctx.platformId, quote.sourceAccountId);
    return account !== undefined && account.posted - account.held >= quote.sendingAmount;
  }

  /**
   * POST /sandbox/send: the funds a REALTIME_FUNDING quote's instructions ask for arrive, and the
   * quote executes by itself (the source leg comes from external clearing).
   */
  async sandboxSend(ctx: CallerContext, request: SandboxSendRequest): Promise<Transaction> {
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'Sandbox payments take a sandbox token');
    const quote = await this.require(ctx.platformId, request.quoteId);
    if (quote.sourceType !== 'REALTIME_FUNDING') {
      throw ServiceError.invalidInput([
        { field: 'quoteId', message: 'only a REALTIME_FUNDING quote is paid by its instructions; execute this one with POST /quotes/{id}/execute' },
      ]);
    }
    if (request.currencyCode !== quote.sourceCurrency) {
      throw new ServiceError('INVALID_CURRENCY', `Quote ${quote.id} is funded in ${quote.sourceCurrency}`, { field: 'currencyCode' });
    }
    if (request.currencyAmount !== undefined && BigInt(request.currencyAmount) !== quote.sendingAmount) {
      throw new ServiceError('INVALID_AMOUNT', `Quote ${quote.id} is funded with exactly ${quote.sendingAmount}`, {
        field: 'currencyAmount',
        totalSendingAmount: amountToWire(quote.sendingAmount),
      });
    }
    const now = this.clock.now();
    this.assertExecutable(quote, now);
    return this.explainingRefusal(ctx, quote, now, () =>
      this.transactions.run(async (manager) => {
        const executed = await this.executeWithin(manager, ctx, quote, true, now);
        return this.transfers.toResource((await this.transactionsRepo.findById(ctx.platformId, executed.transactionId, manager))!);
      }),
    );
  }

  /** 409 for a quote that cannot execute any more (already executed, failed or expired). */
  private assertExecutable(quote: QuoteEntity, now: Date): void {
    // Expired whether or not the expiry job has marked it yet.
    if (quote.status === 'EXPIRED' || (quote.status === 'PENDING' && quote.expiresAt <= now)) {
      throw new ServiceError('CONFLICT', `Quote ${quote.id} expired at ${quote.expiresAt.toISOString()}; request a new quote`, {
        reason: 'QUOTE_EXPIRED',
        expiresAt: quote.expiresAt.toISOString(),
      });
    }
    if (quote.status !== 'PENDING') {
      throw new ServiceError('INVALID_STATE_TRANSITION', `Quote ${quote.id} is ${quote.status}; a quote executes once`, { status: quote.status });
    }
  }

  /** The sandbox outcome of a quote's payment (plain success outside the sandbox). */
  private outcomeOf(ctx: CallerContext, quote: NewQuote) {
    return quote.sandboxOutcome !== null && this.sandbox.applyTo(ctx) ? quoteOutcome(quote.sandboxOutcome) : QUOTE_SUCCESS;
  }

  /**
   * Executes a quote: a new one (`existing` false: inserted PROCESSING) or an existing one (its
   * conditional PENDING -> PROCESSING, which only one of racing executions gets past). Used by
   * execute, immediatelyExecute and real-time funding. A payment that goes ahead is one statement
   * (in the caller's transaction, or atomic alone): the quote's move, the source account's lock
   * and the source leg, the transaction, its first event and its next step. It is refused as a
   * whole, nothing written, when the quote cannot execute, or its source account may not move
   * money or cannot pay (QuoteNotExecutable for the quote: see `explainingRefusal`). A payment the
   * sandbox fails at execution takes two statements, in the caller's transaction.
   */
  async executeWithin(manager: EntityManager, ctx: CallerContext, quote: NewQuote, existing: boolean, now: Date): Promise<QuoteEntity> {
    const outcome = this.outcomeOf(ctx, quote);
    const statement = new CompositeStatement().add('quote', this.quotes.executionPart(quote, existing, now));
    if (outcome.kind === 'FAILS_AT_EXECUTION') {
      const [started] = await manager.query<QuoteRow[]>(...this.asQuery(statement.end({ sql: 'SELECT * FROM quote', params: [] })));
      if (!started) throw new QuoteNotExecutable();
      await this.insertTransaction(manager, this.quotes.executed(started), 'FAILED', outcome.failureReason);
      return (await this.quotes.transition(manager, ctx.platformId, quote.id, ['PROCESSING'], 'FAILED', outcome.failureReason))!;
    }
    const refusals = [refuseWhen('NOT EXISTS (SELECT 1 FROM quote)', 'QUOTE_NOT_EXECUTABLE')];
    let movable = 'true';
    if (quote.sourceAccountId !== null) {
      // The source account is locked (FOR SHARE) before its debit, and may have been frozen or
      // closed since the quote's checks: its status is read under the lock.
      statement.add('source', this.accounts.lockStatusPart(quote.platformId, quote.sourceAccountId));
      movable = `EXISTS (SELECT 1 FROM source WHERE status IN (${NEW_MOVEMENT_STATUSES.map((status) => `'${status}'`).join(', ')}))`;
      refusals.push(refuseWhen(`NOT ${movable}`, 'ACCOUNT_NOT_ACTIVE', '(SELECT status FROM source)'));
    }
    const debit = await this.quoteLedger.moveParts(manager, quote, 'EXECUTION', 'debit_', movable);
    for (const [name, part] of debit.parts) statement.add(name, part);
    if (debit.refusal) refusals.push(debit.refusal);
    const transaction = await this.transactionParts(quote, 'PENDING', null, outcome.steps);
    for (const [name, part] of transaction) statement.add(name, part);
    const query = statement.end({ sql: `SELECT q.*, CASE ${refusals.join(' ')} ELSE true END AS executed FROM (SELECT 1) one LEFT JOIN quote q ON true`, params: [] });
    try {
      const [row] = await manager.query<QuoteRow[]>(...this.asQuery(query));
      return this.quotes.executed(row);
    } catch (error) {
      const refused = refusedStatement(error);
      if (!refused) throw error;
      if (refused.code === 'ACCOUNT_NOT_ACTIVE') throw refused.detail ? accountNotActive(quote.sourceAccountId!, refused.detail) : accountNotFound(quote.sourceAccountId!);
      if (refused.code === 'QUOTE_NOT_EXECUTABLE') throw new QuoteNotExecutable();
      throw ledgerRefusalOf(error) ?? error;
    }
  }

  /**
   * Runs an execution; when its quote could not execute, answers why as the quote is now
   * (executed, failed or expired meanwhile), read once the execution's transaction has ended.
   */
  private async explainingRefusal<T>(ctx: CallerContext, quote: NewQuote, now: Date, execution: () => Promise<T>): Promise<T> {
    try {
      return await execution();
    } catch (error) {
      if (!(error instanceof QuoteNotExecutable)) throw error;
      const current = await this.quotes.findById(ctx.platformId, quote.id);
      if (current) this.assertExecutable(current, now);
      throw new ServiceError('INVALID_STATE_TRANSITION', `Quote ${quote.id} cannot execute now`);
    }
  }

  private asQuery(statement: Statement): [string, unknown[]] {
    return [preparedStatement(statement.sql), statement.params];
  }

  /** The quote's transaction, its first event and the first of its steps, in one statement (the row is known before it is written). */
  private async insertTransaction(manager: EntityManager, quote: NewQuote, status: 'PENDING' | 'FAILED', failureReason: QuoteFailureReason | null): Promise<void> {
    const statement = new CompositeStatement();
    for (const [name, part] of await this.transactionParts(quote, status, failureReason, [])) statement.add(name, part);
    await manager.query(...this.asQuery(statement.end({ sql: 'SELECT 1', params: [] })));
  }

  /** The parts writing the quote's transaction (`change`), its first event and the first of its steps. */
  private async transactionParts(quote: NewQuote, status: 'PENDING' | 'FAILED', failureReason: QuoteFailureReason | null, steps: QuoteStep[]): Promise<Array<[string, Statement]>> {
    const row = transactionRowOf(quote, status, failureReason);
    const now = this.clock.now();
    const transaction = await this.transfers.toResource(this.transactionsRepo.entityOf(row, now));
    const change = this.transactionsRepo.insertStatement(row, now);
    const parts: Array<[string, Statement]> = [['change', { sql: `${change.sql} RETURNING 1`, params: change.params }]];
    for (const next of this.nextStepStatements(quote, steps)) parts.push(['next_step', next]);
    parts.push(['announced', this.outbox.eventPart(transactionStatusEvent(quote.platformId, transaction), 'change')]);
    return parts;
  }

  /**
   * The transaction a quote's execution will create, as GET would return it, before it exists:
   * what the webhooks of a quote waiting for Strong Customer Authentication carry.
   */
  async transactionToBe(quote: QuoteEntity, failureReason: QuoteFailureReason | null): Promise<Transaction> {
    const row = transactionRowOf(quote, failureReason === null ? 'PENDING' : 'FAILED', failureReason);
    return this.transfers.toResource(this.transactionsRepo.entityOf(row, this.clock.now()));
  }

  /**
   * The scheduled next step of an executed quote. A step that finds the transaction not in the
   * status it follows does nothing, so a retried job never moves money twice.
   */
  async advance(payload: AdvanceQuoteJob, manager: EntityManager): Promise<void> {
    // The quote and its transaction, the transaction locked: read with the batch's (prepareSteps).
    const key = `${payload.platformId}|${payload.quoteId}`;
    if (!this.preparedSteps.get(manager)?.has(key)) await this.prepareSteps([payload], manager);
    const prepared = this.preparedSteps.get(manager)!;
    const found = prepared.get(key);
    prepared.delete(key);
    if (!found) return;
    const { quote, transaction } = found;
    const { step } = payload;
    if (step.status !== 'PROCESSING' && step.status !== 'COMPLETED' && step.status !== 'FAILED') return this.advanceRefund(payload, quote, transaction, manager);
    // A payment cancelled while processing belongs to its cancellation: its payout steps do nothing.
    if (transaction.refundStatus !== null) return;
    const currentStatus = transaction.status;
    const expected: TransactionStatus[] =
      step.status === 'PROCESSING' ? ['PENDING'] : step.status === 'COMPLETED' ? ['PENDING', 'PROCESSING'] : ['PENDING', 'PROCESSING', 'COMPLETED'];
    if (!expected.includes(currentStatus)) return;
    // The ledger's moves, the transaction's, its event, the quote's move and the next step: one
    // statement, refused as a whole (the job then fails) when an internal account refuses a move.
    const moves: QuoteMove[] =
      step.status === 'COMPLETED'
        ? ['PAYOUT']
        : step.status === 'FAILED'
          ? [...(currentStatus === 'COMPLETED' ? ['RETURN' as const] : []), ...(step.refund ? ['REFUND' as const] : [])]
          : [];
    const statement = new CompositeStatement();
    const refusals: string[] = [];
    for (const move of moves) {
      const posted = await this.quoteLedger.moveParts(manager, quote, move, `${move.toLowerCase()}_`);
      for (const [name, part] of posted.parts) statement.add(name, part);
      if (posted.refusal) refusals.push(posted.refusal);
    }
    const now = this.clock.now();
    const failureReason = step.failureReason ?? null;
    const change = this.transactionsRepo.transitionStatement(payload.platformId, quote.transactionId, currentStatus, step.status, failureReason, now);
    statement.add('change', { sql: `${change.sql} RETURNING 1`, params: change.params });
    for (const next of this.nextStepStatements(quote, payload.next)) statement.add('next_step', next);
    if (step.status !== 'PROCESSING') {
      const quoteFailure = step.status === 'FAILED' ? (step.failureReason ?? 'QUOTE_EXECUTION_FAILED') : null;
      statement.add('quote_moved', this.quotes.transitionStatement(payload.platformId, quote.id, ['PROCESSING', 'COMPLETED'], step.status, quoteFailure));
    }
    const moved = await this.transfers.toResource(this.transactionsRepo.transitioned(transaction, step.status, failureReason, now));
    statement.add('announced', this.outbox.eventPart(transactionStatusEvent(payload.platformId, moved), 'change'));
    // Unreachable while the row lock holds; if it were not, nothing of this step may commit.
    refusals.push(refuseWhen('NOT EXISTS (SELECT 1 FROM change)', 'TRANSACTION_CHANGED_CONCURRENTLY'));
    try {
      await manager.query(...this.asQuery(statement.end({ sql: `SELECT CASE ${refusals.join(' ')} ELSE true END AS advanced`, params: [] })));
    } catch (error) {
      throw ledgerRefusalOf(error) ?? error;
    }
  }

  /**
   * A refund's step (see QuoteStep): REFUND_PENDING initiates the refund of a FAILED payment,
   * REFUND_COMPLETED gives the payer back the exact sending amount (the source leg negated,
   * QUOTE_REFUND: the source internal account, or external clearing for real-time funding) and
   * settles the refund, REFUND_FAILED settles it leaving the money with the service;
   * CANCELLATION_RESOLVED ends a payment cancelled while processing COMPLETED once its refund
   * settled, nothing paid out. Each moves from the state it expects or does nothing, and its
   * change, ledger entry, event and next step are one statement refused as a whole: a step run
   * twice credits once.
   */
  private async advanceRefund(payload: AdvanceQuoteJob, quote: QuoteEntity, transaction: PaymentTransactionEntity, manager: EntityManager): Promise<void> {
    const { step } = payload;
    const now = this.clock.now();
    const statement = new CompositeStatement();
    const refusals: string[] = [];
    let announced;
    if (step.status === 'CANCELLATION_RESOLVED') {
      if (transaction.status !== 'PROCESSING' || transaction.refundStatus !== 'COMPLETED') return;
      const change = this.transactionsRepo.transitionStatement(payload.platformId, transaction.id, 'PROCESSING', 'COMPLETED', null, now);
      statement.add('change', { sql: `${change.sql} RETURNING 1`, params: change.params });
      statement.add('quote_moved', this.quotes.transitionStatement(payload.platformId, quote.id, ['PROCESSING'], 'COMPLETED', null));
      announced = transactionStatusEvent(payload.platformId, await this.transfers.toResource(this.transactionsRepo.transitioned(transaction, 'COMPLETED', null, now)));
    } else {
      const from = step.status === 'REFUND_PENDING' ? null : 'PENDING';
      if (transaction.refundStatus !== from || (from === null && transaction.status !== 'FAILED')) return;
      const move: RefundMove = {
        from,
        to: step.status === 'REFUND_PENDING' ? 'PENDING' : step.status === 'REFUND_COMPLETED' ? 'COMPLETED' : 'FAILED',
        reason: transaction.refundReason ?? step.refundReason ?? 'TRANSACTION_FAILED',
      };
      if (move.to === 'COMPLETED') {
        const posted = await this.quoteLedger.moveParts(manager, quote, 'REFUND', 'refund_');
        for (const [name, part] of posted.parts) statement.add(name, part);
        if (posted.refusal) refusals.push(posted.refusal);
      }
      const change = this.transactionsRepo.refundStatement(payload.platformId, transaction.id, transaction.status, move, now);
      statement.add('change', { sql: `${change.sql} RETURNING 1`, params: change.params });
      announced = transactionRefundEvent(payload.platformId, await this.transfers.toResource(this.transactionsRepo.refundMoved(transaction, move, now)));
    }
    for (const next of this.nextStepStatements(quote, payload.next)) statement.add('next_step', next);
    statement.add('announced', this.outbox.eventPart(announced, 'change'));
    refusals.push(refuseWhen('NOT EXISTS (SELECT 1 FROM change)', 'TRANSACTION_CHANGED_CONCURRENTLY'));
    try {
      await manager.query(...this.asQuery(statement.end({ sql: `SELECT CASE ${refusals.join(' ')} ELSE true END AS advanced`, params: [] })));
    } catch (error) {
      throw ledgerRefusalOf(error) ?? error;
    }
  }

  /**
   * Reads the quotes and transactions of a batch of steps in one statement, each transaction
   * locked until the batch commits, for `advance` to take. A batch never holds two steps of one
   * quote (each step schedules the next when it commits), so nothing read changes before its step.
   */
  private async prepareSteps(payloads: AdvanceQuoteJob[], manager: EntityManager): Promise<void> {
    const found = await this.quotes.findManyWithTransactionLocked(
      manager,
      payloads.map((payload) => ({ platformId: payload.platformId, id: payload.quoteId })),
    );
    const byKey = new Map<string, QuoteWithTransaction | undefined>(payloads.map((payload) => [`${payload.platformId}|${payload.quoteId}`, undefined]));
    for (const one of found) byKey.set(`${one.quote.platformId}|${one.quote.id}`, one);
    this.preparedSteps.set(manager, byKey);
  }

  /**
   * Cancels an executed quote's payment (POST /transactions/{id}/cancel), refunded with reason
   * USER_CANCELLATION. Before the payout starts (PENDING) it fails and the sending amount goes
   * back to the source at once: FAILED, REFUND_PENDING, REFUND_COMPLETED in one transaction.
   * While processing it is the guide's manual cancellation: the refund is initiated now
   * (REFUND_PENDING; the payout steps still scheduled then do nothing), settles a step later
   * (REFUND_COMPLETED, the source credited once) and the payment then ends COMPLETED with
   * nothing paid out, its `refund` telling what happened. Anything else answers 409.
   */
  async cancel(ctx: CallerContext, quoteId: string): Promise<Transaction> {
    return this.transactions.run(async (manager) => {
      const quote = await this.quotes.findById(ctx.platformId, quoteId, manager);
      const current = quote && (await this.transactionsRepo.findById(ctx.platformId, quote.transactionId, manager, true));
      if (!quote || !current) throw new ServiceError('TRANSACTION_NOT_FOUND', `No transaction for quote ${quoteId}`);
      const cancelled = (from: RefundMove['from'], to: RefundMove['to']): RefundMove => ({ from, to, reason: 'USER_CANCELLATION' });
      if (current.status === 'PROCESSING' && current.refundStatus === null) {
        const now = this.clock.now();
        const statement = new CompositeStatement();
        const change = this.transactionsRepo.refundStatement(ctx.platformId, current.id, 'PROCESSING', cancelled(null, 'PENDING'), now);
        statement.add('change', { sql: `${change.sql} RETURNING 1`, params: change.params });
        for (const next of this.nextStepStatements(quote, CANCELLATION_STEPS)) statement.add('next_step', next);
        const transaction = await this.transfers.toResource(this.transactionsRepo.refundMoved(current, cancelled(null, 'PENDING'), now));
        statement.add('announced', this.outbox.eventPart(transactionRefundEvent(ctx.platformId, transaction), 'change'));
        await manager.query(...this.asQuery(statement.end({ sql: 'SELECT 1', params: [] })));
        return transaction;
      }
      if (current.status !== 'PENDING') {
        throw new ServiceError(
          'TRANSACTION_NOT_CANCELLABLE',
          `Transaction ${current.id} is ${current.status}${current.refundStatus !== null ? `, its refund ${current.refundStatus}` : ''}; only a PENDING or PROCESSING payment can be cancelled`,
          {
            status: current.status,
          },
        );
      }
      await this.quoteLedger.post(manager, quote, 'REFUND');
      const failed = (await this.transactionsRepo.transition(manager, ctx.platformId, current.id, 'PENDING', 'FAILED', 'CANCELLED'))!;
      await this.quotes.transition(manager, ctx.platformId, quote.id, ['PROCESSING'], 'FAILED', 'QUOTE_EXECUTION_FAILED');
      await this.announce(manager, ctx.platformId, await this.transfers.toResource(failed));
      const pending = (await this.transactionsRepo.moveRefund(manager, ctx.platformId, current.id, 'FAILED', cancelled(null, 'PENDING')))!;
      await this.outbox.add(manager, transactionRefundEvent(ctx.platformId, await this.transfers.toResource(pending)));
      const refunded = (await this.transactionsRepo.moveRefund(manager, ctx.platformId, current.id, 'FAILED', cancelled('PENDING', 'COMPLETED')))!;
      const transaction = await this.transfers.toResource(refunded);
      await this.outbox.add(manager, transactionRefundEvent(ctx.platformId, transaction));
      return transaction;
    });
  }

  /** The statement scheduling the first of `steps`, carrying the rest (a quote's steps never overtake each other); none when no step is left. */
  private nextStepStatements(quote: NewQuote, steps: QuoteStep[]): Statement[] {
    const [step, ...rest] = steps;
    if (!step) return [];
    return [
      this.scheduler.scheduleStatement([
        {
          kind: ADVANCE_QUOTE_JOB,
          platformId: quote.platformId,
          payload: { platformId: quote.platformId, quoteId: quote.id, step, next: rest },
          delayMs: step.delayMs,
          sandboxDelay: true,
          dedupeKey: `${quote.id}:${step.status}`,
        },
      ]),
    ];
  }

  private async resolveSource(ctx: CallerContext, request: CreateQuoteMessage): Promise<ResolvedSource> {
    const resolved = await this.resolveSourceOf(ctx, request);
    // An agent pays from its customer's money only: any other source is unknown to it.
    if (ctx.agent && resolved.customerId !== ctx.agent.customerId) {
      throw request.source.sourceType === 'REALTIME_FUNDING'
        ? unknownSourceCustomer(request.source.customerId!)
        : accountNotFound(request.source.accountId!, { field: 'source.accountId' });
    }
    return resolved;
  }

  private async resolveSourceOf(ctx: CallerContext, request: CreateQuoteMessage): Promise<ResolvedSource> {
    const source =
      ctx.agent && request.source.sourceType === 'REALTIME_FUNDING' ? { ...request.source, customerId: request.source.customerId ?? ctx.agent.customerId } : request.source;
    if (source.sourceType === 'REALTIME_FUNDING') {
      const currency = source.currency!;
      if (!(await this.currencies.find(currency))) throw new ServiceError('INVALID_CURRENCY', `Unknown currency ${currency}`, { field: 'source.currency' });
      // The funds arrive from outside; the transaction is recorded against the payer customer's account in that currency, or the platform's.
      const [record] = source.customerId
        ? await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId: source.customerId, currency, limit: 1 })
        : (await this.internalAccounts.list(ctx, { owner: 'PLATFORM', currency, limit: 1 })).data;
      if (!record && source.customerId) {
        // No account in any currency: not a customer of the platform (the reference declares 400, not 404, for POST /quotes).
        const [anyAccount] = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId: source.customerId, limit: 1 });
        if (!anyAccount) throw unknownSourceCustomer(source.customerId);
      }
      if (!record) {
        throw new ServiceError('INVALID_CURRENCY', `${source.customerId ?? 'The platform'} has no ${currency} account to record a real-time funded payment against`, {
          field: 'source.currency',
        });
      }
      return { account: null, fundingAccountId: record.id, currency, customerId: source.customerId ?? null };
    }
    const account = await this.accounts.findById(ctx.platformId, source.accountId!);
    if (!account) throw accountNotFound(source.accountId!, { field: 'source.accountId' });
    if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
    if (source.customerId !== undefined && source.customerId !== account.customerId) {
      throw new ServiceError('COUNTERPARTY_NOT_ALLOWED', `Internal account ${account.id} does not belong to customer ${source.customerId}`, { field: 'source.customerId' });
    }
    return { account, fundingAccountId: null, currency: account.currencyCode, customerId: account.customerId };
  }

  private async resolveDestination(ctx: CallerContext, request: CreateQuoteMessage, sourceCustomerId: string | null): Promise<ResolvedDestination> {
    const { destination } = request;
    if (destination.destinationType === 'UMA_ADDRESS') return this.umaReceivers.resolveForQuote(ctx, destination.umaAddress!, destination.currency);
    const accountId = destination.accountId!;
    if (accountId.startsWith('InternalAccount:')) {
      const account = await this.accounts.findById(ctx.platformId, accountId);
      if (!account) throw accountNotFound(accountId, { field: 'destination.accountId' });
      if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
      return { kind: 'INTERNAL_ACCOUNT', currency: account.currencyCode, accountId: account.id, umaAddress: null, sandboxOutcome: null };
    }
    const external = await this.externalAccounts.get(ctx, accountId);
    // A customer pays its own beneficiaries or the platform's accounts; never another customer's.
    if (external.customerId !== undefined && sourceCustomerId !== null && external.customerId !== sourceCustomerId) {
      throw new ServiceError('COUNTERPARTY_NOT_ALLOWED', `External account ${external.id} belongs to another customer`, { field: 'destination.accountId' });
    }
    if (!external.routing.canReceivePayments) {
      throw new ServiceError('INVALID_BANK_ACCOUNT', `External account ${external.id} is ${external.status}; only ACTIVE accounts can be paid`, { status: external.status });
    }
    return {
      kind: 'EXTERNAL_ACCOUNT',
      currency: external.currency,
      accountId: external.id,
      umaAddress: null,
      sandboxOutcome: this.sandbox.applyTo(ctx) ? external.routing.primaryIdentifierLast3 : null,
    };
  }

  /** A quote naming a lookup must name one of the caller's, made for the receiver it pays (a UMA address or an external account). */
  private assertLookupOf(lookupId: string | undefined, lookup: QuoteLookup | undefined, destination: ResolvedDestination): void {
    if (lookupId === undefined) return;
    const target = destination.kind === 'EXTERNAL_ACCOUNT' ? destination.accountId : destination.umaAddress;
    if (!lookup || lookup.target !== target) {
      throw new ServiceError('LOOKUP_REQUEST_NOT_FOUND', `Lookup ${lookupId} not found for ${target ?? destination.accountId}`, { field: 'lookupId' });
    }
  }

  private async corridorFor(source: string, destination: string, rail: CreateQuoteMessage['destination']['paymentRail']): Promise<PricedCorridor> {
    if (source !== destination) return this.rates.corridor(source, destination, rail);
    const currency = await this.currencies.get(source);
    return { corridor: sameCurrencyCorridor(source, currency.maxTransferAmount), source: currency, destination: currency };
  }

  /**
   * Prices the locked side. Fees come off the sending amount (variable fees rounded up); the rest
   * converts and rounds down to the receiving currency's smallest unit; a locked receiving amount
   * is met exactly by the smallest sending amount that reaches it.
   */
  private price(priced: PricedCorridor, request: CreateQuoteMessage, configured?: PlatformFee): Price {
    const { corridor, source, destination } = priced;
    const override = request.platformFeeOverride;
    if (override && override.platformFixedFee.currency !== source.code) {
      throw ServiceError.invalidInput([
        { field: 'platformFeeOverride.platformFixedFee.currency', message: `the platform's fixed fee must be in the sending currency ${source.code}` },
      ]);
    }
    const platform: PlatformFee = override
      ? { fixed: BigInt(override.platformFixedFee.amount), variableBps: BigInt(override.platformVariableFeeBps) }
      : (configured ?? { fixed: 0n, variableBps: 0n });
    const amount = amountFromWire(request.lockedCurrencyAmount);
    let price: Price;
    try {
      price =
        request.lockedCurrencySide === 'SENDING'
          ? priceSending(corridor, amount, source.decimals, destination.decimals, platform)
          : priceReceiving(corridor, amount, source.decimals, destination.decimals, platform);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw ServiceError.invalidInput([{ field: 'platformFeeOverride.platformVariableFeeBps', message: 'variable fees must stay below 100% of the sending amount' }]);
    }
    if (price.sending < corridor.minSendingAmount || price.sending > corridor.maxSendingAmount || price.receiving <= 0n) {
      throw new ServiceError(
        'AMOUNT_OUT_OF_RANGE',
        `${source.code} to ${destination.code} takes sending amounts from ${corridor.minSendingAmount} to ${corridor.maxSendingAmount} (smallest unit), and must deliver more than 0 after fees`,
        {
          minSendingAmount: amountToWire(corridor.minSendingAmount),
          maxSendingAmount: amountToWire(corridor.maxSendingAmount),
          // Far outside the corridor, a price can be beyond what an amount carries: then it is left out.
          sendingAmount: fitsOnWire(price.sending) ? amountToWire(price.sending) : undefined,
          receivingAmount: fitsOnWire(price.receiving) ? amountToWire(price.receiving) : undefined,
        },
      );
    }
    return price;
  }

  /** An agent sees its customer's quotes only: any other is unknown to it. */
  private async requireFor(ctx: CallerContext, quoteId: string): Promise<QuoteEntity> {
    const quote = await this.require(ctx.platformId, quoteId);
    if (ctx.agent && quote.customerId !== ctx.agent.customerId) throw new ServiceError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return quote;
  }

  private async require(platformId: string, quoteId: string): Promise<QuoteEntity> {
    const quote = await this.quotes.findById(platformId, quoteId);
    if (!quote) throw new ServiceError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return quote;
  }

  private async toResource(quote: QuoteEntity, now: Date): Promise<Quote> {
    return toQuote(quote, await this.currencies.get(quote.sourceCurrency), await this.currencies.get(quote.destinationCurrency), now);
  }

  /** Every status a transaction enters is announced, with the transaction as GET returns it. */
  private async announce(manager: EntityManager, platformId: string, transaction: Transaction): Promise<void> {
    await this.outbox.add(manager, transactionStatusEvent(platformId, transaction));
  }
}

/** An execution found its quote no longer PENDING, or expired (a racing execution got past it). */
class QuoteNotExecutable extends Error {}

/**
 * The mandatory payer data a quote's lookup asked for that `senderCustomerInfo` does not give:
 * the sending customer must have each (checked by the customers service with its readiness).
 */
function payerDataToCheck(lookup: QuoteLookup | undefined, senderCustomerInfo: Record<string, unknown> | undefined): CustomerInfoFieldName[] {
  if (!lookup) return [];
  const given = (name: string) => senderCustomerInfo?.[name] !== undefined && senderCustomerInfo[name] !== null && senderCustomerInfo[name] !== '';
  return lookup.requiredPayerDataFields.filter((field) => field.mandatory && !given(field.name)).map((field) => field.name);
}

/** What an EMBEDDED_WALLET quote's own challenge is bound to: the quote, its sending amount and currency. */
function quoteExecutionDigest(quote: Pick<QuoteEntity, 'id' | 'sendingAmount' | 'sourceCurrency'>): string {
  return createHash('sha256')
    .update(JSON.stringify({ operation: 'QUOTE_EXECUTE', quoteId: quote.id, amount: quote.sendingAmount.toString(), currency: quote.sourceCurrency }))
    .digest('hex');
}

/**
 * The signed-retry input of an execution. A signature without a `Request-Id` (or with the
 * quote's) answers the challenge issued with the quote (the reference's one call): it is consumed
 * as bound to the quote, not to this request. Anything else is the two-call form, as sent.
 */
function quoteSignedRetry(quote: QuoteEntity, input: SignedRetryInput): SignedRetryInput {
  const issued = quote.extra.walletSignature;
  if (!issued || input.signature === undefined || (input.requestId !== undefined && input.requestId !== issued.requestId)) return input;
  return { requestDigest: quoteExecutionDigest(quote), signature: input.signature, requestId: issued.requestId };
}

/** The reference a real-time funded quote's payment must carry: derived from the quote id, unique with it. */
function fundingReference(quoteId: string): string {
  return `QT-${quoteId
    .replace(/^Quote:/, '')
    .replace(/-/g, '')
    .slice(-12)
    .toUpperCase()}`;
}

/** A customer named in the quote's source that is not the caller's to use: 400 naming the field (POST /quotes declares no 404). */
function unknownSourceCustomer(customerId: string): ServiceError {
  return ServiceError.unknownReference('source.customerId', `Customer ${customerId} not found`);
}

/** The row of a quote's transaction (its execution writes it). */
function transactionRowOf(quote: NewQuote, status: 'PENDING' | 'FAILED', failureReason: QuoteFailureReason | null): NewTransaction {
  return {
    id: quote.transactionId,
    platformId: quote.platformId,
    type: 'OUTGOING',
    status,
    customerId: quote.customerId,
    platformCustomerId: quote.customerId === null ? null : (quote.extra.platformCustomerId ?? quote.customerId),
    internalAccountId: (quote.sourceAccountId ?? quote.fundingAccountId)!,
    // A UMA counterparty is named by its address, never by the account behind it.
    externalAccountId: quote.destinationKind === 'UMA_SANDBOX' || quote.destinationKind === 'UMA_CUSTOMER' ? null : quote.destinationAccountId,
    currencyCode: quote.sourceCurrency,
    amount: quote.sendingAmount,
    holdId: null,
    description: quote.description,
    failureReason,
    paymentRail: quote.paymentRail,
    railSelectionMode: quote.extra.railChosen ? 'MANUAL' : 'AUTO',
    remittanceInformation: quote.extra.remittanceInformation ?? null,
    purposeOfPayment: (quote.extra.purposeOfPayment as PurposeOfPayment | undefined) ?? null,
    quoteId: quote.id,
    receivedCurrencyCode: quote.destinationCurrency,
    receivedAmount: quote.receivingAmount,
    counterpartyUmaAddress: quote.destinationUmaAddress,
    fees: quote.serviceFee + quote.platformFee,
    platformFees: quote.platformFee,
  };
}
