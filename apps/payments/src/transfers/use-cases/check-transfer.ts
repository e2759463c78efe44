import { Injectable } from '@nestjs/common';
import { amountFromWire, amountToWire, CallerContext, ExternalAccountWithRouting, PaymentRail, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { requestHash } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { isClientRetry, requestFingerprint } from '../../client-retries';
import { CustomersClient } from '../../counterparties/customers.client';
import { ExternalAccountsClient } from '../../counterparties/external-accounts.client';
import { CurrencyInfo } from '../../currencies/currencies.repository';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { InternalAccountWithBalance } from '../../internal-accounts/entities/internal-account.entity';
import { accountNotActive, accountNotFound } from '../../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { defaultRail, railsOf } from '../payment-rails';
import { transferOutcome } from '../transfers.sandbox';
import { TransactionReader } from './transaction-reader';
import { CheckedTransfer, TransferRequest } from './transfer-request';

/**
 * Every check of a transfer that comes before the database transaction (those that need another
 * service included), or the earlier answer of a repeated Idempotency-Key, or (without a key) of
 * the request a client library's automatic retry repeats.
 */
@Injectable()
export class CheckTransfer {
  constructor(
    private readonly reader: TransactionReader,
    private readonly accounts: InternalAccountsRepository,
    private readonly externalAccounts: ExternalAccountsClient,
    private readonly currencies: CurrencyCatalog,
    private readonly customers: CustomersClient,
    private readonly sandbox: SandboxRules,
  ) {}

  async run(ctx: CallerContext, request: TransferRequest): Promise<CheckedTransfer | { earlier: Transaction }> {
    const { idempotencyKey, retryOf, origin, ...body } = request;
    const operation = `transfer-${request.type === 'OUTGOING' ? 'out' : 'in'}`;
    const hash = requestHash({ operation, ...body });
    // The platform is the column beside it; the route is the operation and who sent it (an agent's route is its own).
    const fingerprint = idempotencyKey ? undefined : requestFingerprint(operation, origin, body);
    const account = await this.accounts.findById(ctx.platformId, request.internalAccountId);
    // Looked for after the account is read: a transfer under the same key that committed before
    // that read left its answer too, so a retry racing it replays instead of seeing its hold.
    if (idempotencyKey) {
      const earlier = await this.reader.replayed(ctx.platformId, idempotencyKey, hash);
      if (earlier) return { earlier };
    }
    if (fingerprint && isClientRetry(retryOf)) {
      const earlier = await this.reader.retried(ctx.platformId, fingerprint);
      if (earlier) return { earlier: await this.reader.toResource(earlier) };
    }
    const internalField = request.type === 'OUTGOING' ? 'source' : 'destination';
    const externalField = request.type === 'OUTGOING' ? 'destination' : 'source';
    if (request.type === 'INCOMING' && request.amount === undefined) {
      // A pull cannot default to "everything": the external account's balance is not known here.
      throw new ServiceError('INVALID_AMOUNT', 'A transfer-in needs an amount: the balance of the external account cannot be read', { field: 'amount' });
    }
    if (!account) throw accountNotFound(request.internalAccountId, { field: `${internalField}.accountId` });
    if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
    const external = await this.externalAccounts.get(ctx, request.externalAccountId);
    assertCounterparty(account, external, externalField);
    const rail = request.type === 'OUTGOING' ? chooseRail(external, request.paymentRail) : undefined;
    const currency = await this.currencies.get(account.currencyCode);
    if (external.currency !== account.currencyCode || (request.currency !== undefined && request.currency !== account.currencyCode)) {
      throw new ServiceError(
        'INVALID_CURRENCY',
        `Both accounts and the amount must be in one currency (internal ${account.currencyCode}, external ${external.currency}${request.currency ? `, amount ${request.currency}` : ''})`,
      );
    }
    // Without an amount, a transfer-out sends what is available now; the hold re-checks it under the account's lock.
    const amount = request.amount !== undefined ? amountFromWire(request.amount) : account.posted - account.held;
    if (request.amount === undefined && amount <= 0n) {
      throw new ServiceError('INVALID_AMOUNT', `Internal account ${account.id} has no available balance to send`, { field: 'amount', availableBalance: amountToWire(amount) });
    }
    assertAmountInRange(amount, currency);
    const customer = account.customerId ? await this.customers.assertReady(ctx, account.customerId, account.currencyCode) : undefined;
    const outcome = transferOutcome(this.sandbox.applyTo(ctx), external.routing.primaryIdentifierLast3);
    // A customer service of the previous release does not tell the platform's id: the customer id stands in.
    const platformCustomerId = customer ? (customer.platformCustomerId ?? customer.customerId) : ctx.platformId;
    return { request, hash, ...(fingerprint ? { fingerprint } : {}), account, external, currency, outcome, amount, platformCustomerId, ...(rail ? { rail } : {}) };
  }
}

/**
 * The rail of a payout: the requested one, which must be among the rails the external account
 * lists (when it lists them), or the account's default.
 */
function chooseRail(external: ExternalAccountWithRouting, requested: PaymentRail | undefined): { paymentRail: PaymentRail; mode: 'AUTO' | 'MANUAL' } | undefined {
  if (requested === undefined) {
    const rail = defaultRail(external);
    return rail ? { paymentRail: rail, mode: 'AUTO' } : undefined;
  }
  const rails = railsOf(external);
  if (rails && rails.length > 0 && !rails.includes(requested)) {
    throw ServiceError.invalidInput([
      { field: 'destination.paymentRail', message: `External account ${external.id} takes ${rails.join(', ')}, not ${requested}`, constraint: { enum: rails } },
    ]);
  }
  return { paymentRail: requested, mode: 'MANUAL' };
}

/** The external account must be the internal account owner's (the same customer, or both the platform's) and able to receive payments. */
function assertCounterparty(account: InternalAccountWithBalance, external: ExternalAccountWithRouting, field: string): void {
  if ((external.customerId ?? null) !== account.customerId) {
    throw new ServiceError('COUNTERPARTY_NOT_ALLOWED', `External account ${external.id} does not belong to the owner of internal account ${account.id}`, {
      field: `${field}.accountId`,
    });
  }
  if (!external.routing.canReceivePayments) {
    throw new ServiceError('INVALID_BANK_ACCOUNT', `External account ${external.id} is ${external.status}; only ACTIVE accounts can be used`, { status: external.status });
  }
}

function assertAmountInRange(amount: bigint, currency: CurrencyInfo): void {
  if (amount < 1n || amount > currency.maxTransferAmount) {
    throw new ServiceError('AMOUNT_OUT_OF_RANGE', `A transfer in ${currency.code} must be between 1 and ${currency.maxTransferAmount} (smallest unit)`, {
      min: 1,
      max: amountToWire(currency.maxTransferAmount),
    });
  }
}
