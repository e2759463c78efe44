import { createHash } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  CallerContext,
  CreateStablecoinBurnMessage,
  CreateStablecoinMintMessage,
  ExternalAccountWithRouting,
  fitsOnWire,
  LinkStablecoinProviderAccountMessage,
  ListStablecoinOperationsMessage,
  ListStablecoinProviderAccountsQuery,
  ListStablecoinsQuery,
  newId,
  newIdAvoidingSuffixes,
  RegisterStablecoinMessage,
  SANDBOX_INELIGIBLE_FUNDING_SUFFIXES,
  Stablecoin,
  StablecoinOperation,
  StablecoinOperationDestination,
  StablecoinOperationSource,
  StablecoinOperationStatus,
  StablecoinPage,
  StablecoinProviderAccount,
  StablecoinProviderEnvironment,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, IdempotencyStore, isUniqueViolation, JobScheduler, pageLimit, requestHash, toPage, TransactionRunner } from '@paykit/persistence';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config/payments-config';
import { ExternalAccountsClient } from '../counterparties/external-accounts.client';
import { CurrenciesRepository, CurrencyInfo } from '../currencies/currencies.repository';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { InternalAccountWithBalance } from '../internal-accounts/entities/internal-account.entity';
import { accountNotActive, accountNotFound } from '../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { InternalAccountsService } from '../internal-accounts/internal-accounts.service';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LedgerService, NEW_MOVEMENT_STATUSES } from '../ledger/ledger.service';
import { CredentialVault } from './credential-vault';
import { ADVANCE_STABLECOIN_JOB, ADVANCE_STABLECOIN_OPERATION_JOB, AdvanceStablecoinJob, EXPIRE_STABLECOIN_OPERATION_JOB } from './stablecoins.jobs';
import { OperationRow, ProviderAccountRow, StablecoinRow, StablecoinsRepository } from './stablecoins.repository';
import {
  FUNDING_WINDOW_MS,
  operationFailure,
  PAYOUT_RAIL_TIMING,
  registrationPath,
  SANDBOX_PROVIDER_STEP_MS,
  sandboxLinkStatus,
  sandboxProviderAccountId,
  sandboxTokenMetadata,
  StablecoinStep,
} from './stablecoins.sandbox';

const PROVIDER_ACCOUNT_CURSOR = idCursor('StablecoinProviderAccount');
const STABLECOIN_CURSOR = idCursor('Stablecoin');
const OPERATION_CURSOR = idCursor('StablecoinOperation');

/** The largest amount of one transfer of a coin: a billion units of its base currency. */
const MAX_TRANSFER_BASE_UNITS = 1_000_000_000n;

/** Funding types whose money comes from outside the ledger (an external clearing account pays the reserve). */
const EXTERNAL_FUNDING = new Set(['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'PROVIDER_INTERNAL_BALANCE', 'EXTERNAL_ACCOUNT']);

function environmentOf(ctx: CallerContext): StablecoinProviderEnvironment {
  return ctx.environment === 'sandbox' ? 'SANDBOX' : 'PRODUCTION';
}

function toProviderAccount(row: ProviderAccountRow): StablecoinProviderAccount {
  return {
    id: row.id,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
    providerEnvironment: row.environment,
    status: row.status,
    ...(row.lastVerifiedAt ? { lastVerifiedAt: row.lastVerifiedAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toStablecoin(row: StablecoinRow): Stablecoin {
  return {
    id: row.id,
    name: row.name,
    symbol: row.symbol,
    baseCurrency: row.baseCurrency,
    network: row.network,
    decimals: row.decimals,
    issuanceStatus: row.issuanceStatus,
    serviceOperationsStatus: row.serviceOperationsStatus,
    networkTokenIdentifier: row.networkTokenIdentifier,
    ...(row.currency ? { currency: row.currency } : {}),
    provider: row.provider,
    stablecoinProviderAccountId: row.providerAccountId,
    providerEnvironment: row.environment,
    providerTokenIdentifier: row.providerTokenIdentifier,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toOperation(row: OperationRow, coin: Pick<StablecoinRow, 'provider' | 'environment'>): StablecoinOperation {
  return {
    id: row.id,
    stablecoinId: row.stablecoinId,
    operationType: row.operationType,
    status: row.status,
    amount: row.amount.toString(),
    provider: coin.provider,
    providerEnvironment: coin.environment,
    stablecoinProviderAccountId: row.providerAccountId,
    source: row.source,
    destination: row.destination,
    ...(row.fundingInstructions ? { fundingInstructions: row.fundingInstructions } : {}),
    ...(row.estimatedDelivery ? { estimatedDelivery: row.estimatedDelivery } : {}),
    ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
    ...(row.providerStatus ? { providerStatus: row.providerStatus } : {}),
    ...(row.failureReason ? { failureReason: row.failureReason } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Digits derived from an id, for sandbox funding instructions that never collide. */
function digitsOf(seed: string, count: number): string {
  const hash = createHash('sha256').update(seed).digest();
  return Array.from(hash.subarray(0, count), (byte) => String(byte % 10)).join('');
}

/** A validated, converted operation before it is written. */
interface PlannedOperation {
  row: OperationRow;
  /** The internal account paying (held now, captured on completion), if any. */
  payer?: { account: InternalAccountWithBalance; amount: bigint };
}

/**
 * Stablecoin issuance through a provider: links of the platform's provider credentials (sealed),
 * registered coins moving through review, provisioning and enabling on the sandbox clock, and
 * mints and burns, each posting balanced entries in the coin (against its supply account) and in
 * its base currency (against the reserve) when the provider completes it. The built-in sandbox
 * provider answers for sandbox platforms (stablecoins.sandbox.ts).
 */
@Injectable()
export class StablecoinsService implements OnModuleInit {
  private readonly vault: CredentialVault;

  constructor(
    private readonly stablecoins: StablecoinsRepository,
    private readonly idempotency: IdempotencyStore,
    private readonly transactions: TransactionRunner,
    private readonly dataSource: DataSource,
    private readonly scheduler: JobScheduler,
    private readonly clock: Clock,
    private readonly currencies: CurrencyCatalog,
    private readonly currencyTable: CurrenciesRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly internalAccounts: InternalAccountsService,
    private readonly ledger: LedgerRepository,
    private readonly ledgerService: LedgerService,
    private readonly externalAccounts: ExternalAccountsClient,
    @Inject(PAYMENTS_CONFIG) config: PaymentsConfig,
  ) {
    this.vault = new CredentialVault(config.keyEncryptionKey);
  }

  onModuleInit(): void {
    this.scheduler.register(ADVANCE_STABLECOIN_JOB, (payload, manager) => this.advanceStablecoin(manager, payload));
    this.scheduler.register(ADVANCE_STABLECOIN_OPERATION_JOB, (payload, manager) => this.advanceOperation(manager, payload.platformId, payload.operationId));
    this.scheduler.register(EXPIRE_STABLECOIN_OPERATION_JOB, async (payload, manager) => {
      await this.stablecoins.moveOperation(
        manager,
        payload.platformId,
        payload.operationId,
        ['PENDING_FUNDING'],
        { status: 'EXPIRED', providerStatus: 'expired' },
        this.clock.now(),
      );
    });
  }

  // ---- provider account links ----

  /**
   * Links provider credentials. The sandbox provider verifies them by their suffix table; the
   * secret is sealed before it is stored, and the hash of the request (for Idempotency-Key replays)
   * is all that is kept of it besides. A new ACTIVE link to a provider account revokes the earlier ones.
   */
  async link(ctx: CallerContext, request: LinkStablecoinProviderAccountMessage): Promise<StablecoinProviderAccount> {
    const { idempotencyKey, ...body } = request;
    const hash = requestHash([
      'stablecoin-provider-account.link',
      body.provider,
      body.apiClientId,
      body.providerAccountId,
      createHash('sha256').update(body.apiClientSecret).digest('hex'),
    ]);
    return this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
      const now = this.clock.now();
      // Outside the sandbox this deployment has no provider adapter: the credentials cannot be verified.
      const status = ctx.environment === 'sandbox' ? sandboxLinkStatus(body.apiClientId) : 'INVALID';
      const row: ProviderAccountRow = {
        id: newId('StablecoinProviderAccount'),
        platformId: ctx.platformId,
        provider: body.provider,
        providerAccountId: body.providerAccountId ?? sandboxProviderAccountId(body.apiClientId),
        environment: environmentOf(ctx),
        status,
        apiClientId: body.apiClientId,
        sealedClientSecret: this.vault.seal(ctx.platformId, body.apiClientSecret),
        lastVerifiedAt: status === 'ACTIVE' ? now : null,
        createdAt: now,
        updatedAt: now,
      };
      await this.stablecoins.insertProviderAccount(manager, row);
      if (status === 'ACTIVE') await this.stablecoins.revokeEarlierLinks(manager, ctx.platformId, row.providerAccountId, row.id, now);
      return toProviderAccount(row);
    });
  }

  async getProviderAccount(ctx: CallerContext, id: string): Promise<StablecoinProviderAccount> {
    return toProviderAccount(await this.requireProviderAccount(ctx.platformId, id));
  }

  async listProviderAccounts(ctx: CallerContext, query: ListStablecoinProviderAccountsQuery): Promise<StablecoinPage<StablecoinProviderAccount>> {
    const limit = pageLimit(query.limit);
    const { rows, totalCount } = await this.stablecoins.listProviderAccounts(
      ctx.platformId,
      { provider: query.provider, status: query.status },
      { beforeId: decodeCursor(query.cursor, PROVIDER_ACCOUNT_CURSOR), limit: limit + 1 },
    );
    return { ...toPage(rows, limit, toProviderAccount, PROVIDER_ACCOUNT_CURSOR), totalCount };
  }

  private async requireProviderAccount(platformId: string, id: string): Promise<ProviderAccountRow> {
    const row = await this.stablecoins.findProviderAccount(platformId, id);
    if (!row) throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', `Stablecoin provider account ${id} not found`, { stablecoinProviderAccountId: id });
    return row;
  }

  /** A link operations may use: ACTIVE, else the reference's error for its status. */
  private usable(link: ProviderAccountRow): ProviderAccountRow {
    if (link.status === 'INVALID') {
      throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', `Stablecoin provider account ${link.id} is not usable: the provider refused its credentials`, {
        stablecoinProviderAccountId: link.id,
      });
    }
    if (link.status === 'REVOKED') {
      throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_REVOKED', `Stablecoin provider account ${link.id} has been revoked`, { stablecoinProviderAccountId: link.id });
    }
    return link;
  }

  /** The link a registration uses: the one named, or the platform's only ACTIVE one. */
  private async selectLink(ctx: CallerContext, named: string | undefined): Promise<ProviderAccountRow> {
    if (named !== undefined) return this.usable(await this.requireProviderAccount(ctx.platformId, named));
    const links = await this.stablecoins.providerAccountsFor(ctx.platformId, 'BRALE', environmentOf(ctx));
    const active = links.filter((link) => link.status === 'ACTIVE');
    if (active.length > 1) {
      throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED', 'More than one ACTIVE provider account link: give stablecoinProviderAccountId', {
        stablecoinProviderAccountIds: active.map((link) => link.id),
      });
    }
    if (active.length === 1) return active[0];
    if (links.length > 0) return this.usable(links[0]);
    throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', 'No stablecoin provider account is linked: link one with POST /stablecoin-provider-accounts first');
  }

  // ---- stablecoins ----

  /**
   * Registers a coin the provider created. Its symbol becomes a currency code of the deployment
   * once it is enabled, so a symbol held by a currency or by another coin is refused (409).
   */
  async register(ctx: CallerContext, request: RegisterStablecoinMessage): Promise<Stablecoin> {
    const { idempotencyKey, ...body } = request;
    const hash = requestHash(['stablecoin.register', body]);
    const earlier = await this.idempotency.replay<Stablecoin>(this.dataSource.manager, ctx.platformId, idempotencyKey, hash);
    if (earlier) return earlier;
    const link = await this.selectLink(ctx, body.stablecoinProviderAccountId);
    const metadata = sandboxTokenMetadata(body.providerTokenIdentifier);
    if (!metadata) {
      throw ServiceError.invalidField(
        'providerTokenIdentifier',
        `The provider has no token ${body.providerTokenIdentifier}: its identifiers are 3 to 8 capital letters or digits`,
        {
          pattern: '^[A-Z0-9]{3,8}$',
        },
      );
    }
    if ((await this.currencies.find(metadata.symbol)) || (await this.stablecoins.symbolHolder(metadata.symbol))) {
      throw new ServiceError('CONFLICT', `${metadata.symbol} already names a currency or a stablecoin of this deployment`, { reason: 'SYMBOL_TAKEN', symbol: metadata.symbol });
    }
    const now = this.clock.now();
    const row: StablecoinRow = {
      id: newId('Stablecoin'),
      platformId: ctx.platformId,
      providerAccountId: link.id,
      provider: link.provider,
      environment: link.environment,
      ...metadata,
      network: body.network,
      providerTokenIdentifier: body.providerTokenIdentifier,
      networkTokenIdentifier: body.networkTokenIdentifier,
      issuanceStatus: 'PENDING_REVIEW',
      serviceOperationsStatus: 'NOT_ENABLED',
      currency: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      return await this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
        await this.stablecoins.insertStablecoin(manager, row);
        await this.scheduleStablecoinSteps(manager, ctx.platformId, row.id, registrationPath(ctx.environment === 'sandbox', row.providerTokenIdentifier));
        return toStablecoin(row);
      });
    } catch (error) {
      if (!isUniqueViolation(error, 'uq_stablecoin_symbol')) throw error;
      throw new ServiceError('CONFLICT', `${metadata.symbol} already names a stablecoin of this deployment`, { reason: 'SYMBOL_TAKEN', symbol: metadata.symbol });
    }
  }

  async get(ctx: CallerContext, id: string): Promise<Stablecoin> {
    return toStablecoin(await this.requireStablecoin(ctx.platformId, id));
  }

  async list(ctx: CallerContext, query: ListStablecoinsQuery): Promise<StablecoinPage<Stablecoin>> {
    const limit = pageLimit(query.limit);
    const { rows, totalCount } = await this.stablecoins.listStablecoins(
      ctx.platformId,
      { issuance_status: query.issuanceStatus, service_operations_status: query.serviceOperationsStatus, provider: query.provider },
      { beforeId: decodeCursor(query.cursor, STABLECOIN_CURSOR), limit: limit + 1 },
    );
    return { ...toPage(rows, limit, toStablecoin, STABLECOIN_CURSOR), totalCount };
  }

  private async requireStablecoin(platformId: string, id: string, manager?: EntityManager): Promise<StablecoinRow> {
    const row = await this.stablecoins.findStablecoin(platformId, id, manager);
    if (!row) throw new ServiceError('REFERENCE_NOT_FOUND', `Stablecoin ${id} not found`, { stablecoinId: id });
    return row;
  }

  private async scheduleStablecoinSteps(manager: EntityManager, platformId: string, stablecoinId: string, steps: StablecoinStep[]): Promise<void> {
    const [step, ...next] = steps;
    if (!step) return;
    await this.scheduler.schedule(manager, {
      kind: ADVANCE_STABLECOIN_JOB,
      platformId,
      payload: { platformId, stablecoinId, step, next },
      delayMs: SANDBOX_PROVIDER_STEP_MS,
      sandboxDelay: true,
      dedupeKey: `${stablecoinId}:${step.issuanceStatus}:${step.serviceOperationsStatus}`,
    });
  }

  /**
   * One step of a coin's review and enabling. Enabled, the coin becomes a currency of the
   * deployment and the platform gets its holding account in it (an INTERNAL_CRYPTO account).
   */
  private async advanceStablecoin(manager: EntityManager, job: AdvanceStablecoinJob): Promise<void> {
    const coin = await this.stablecoins.findStablecoin(job.platformId, job.stablecoinId, manager);
    if (!coin) return;
    const enabling = job.step.serviceOperationsStatus === 'ENABLED';
    let currency: CurrencyInfo | undefined;
    if (enabling) {
      const base = await this.currencies.get(coin.baseCurrency);
      currency = {
        code: coin.symbol,
        name: coin.name,
        symbol: coin.symbol,
        decimals: coin.decimals,
        isCrypto: true,
        // eslint-disable-next-line paykit/no-raw-bigint -- issue 39: this file is being split into use cases; the helper (decimalScale) replaces it as the split lands
        maxTransferAmount: MAX_TRANSFER_BASE_UNITS * 10n ** BigInt(coin.decimals),
        peggedTo: base.code,
      };
      await this.currencyTable.insertStablecoin(manager, { ...currency, peggedTo: base.code });
    }
    const moved = await this.stablecoins.updateStablecoinStatus(manager, job.platformId, coin.id, { ...job.step, currency: currency?.code ?? null }, this.clock.now());
    if (!moved) return;
    if (currency) {
      await this.accounts.insertManyIfAbsent(manager, [
        {
          id: newIdAvoidingSuffixes('InternalAccount', SANDBOX_INELIGIBLE_FUNDING_SUFFIXES),
          platformId: job.platformId,
          customerId: null,
          type: 'INTERNAL_CRYPTO',
          currencyCode: currency.code,
          walletEmail: null,
        },
      ]);
      // Known to this process from now on; a rollback leaves a currency no account uses, which the job's retry writes.
      await this.currencies.added(currency);
    }
    await this.scheduleStablecoinSteps(manager, job.platformId, coin.id, job.next);
  }

  // ---- mints and burns ----

  /**
   * What a mint and a burn begin with: an earlier answer under the Idempotency-Key, or the
   * operable coin, the amount in both units and the new operation's id and time.
   */
  private async opening(
    ctx: CallerContext,
    type: 'MINT' | 'BURN',
    request: CreateStablecoinMintMessage | CreateStablecoinBurnMessage,
  ): Promise<{ replay: StablecoinOperation } | { hash: string; coin: StablecoinRow; amount: bigint; fiatAmount: bigint; now: Date; id: string }> {
    const { idempotencyKey, stablecoinId, ...body } = request;
    const hash = requestHash([`stablecoin.${type}`, stablecoinId, body]);
    const replay = await this.idempotency.replay<StablecoinOperation>(this.dataSource.manager, ctx.platformId, idempotencyKey, hash);
    if (replay) return { replay };
    const coin = await this.operable(ctx, stablecoinId);
    return { hash, coin, ...this.convert(coin, body.amount), now: this.clock.now(), id: newId('StablecoinOperation') };
  }

  async mint(ctx: CallerContext, request: CreateStablecoinMintMessage): Promise<StablecoinOperation> {
    const opening = await this.opening(ctx, 'MINT', request);
    if ('replay' in opening) return opening.replay;
    const { hash, coin, amount, fiatAmount, now, id } = opening;
    const destination = await this.mintDestination(ctx, coin, request.destination.accountId);
    const funding = request.fundingSource;
    const source: StablecoinOperationSource = { type: funding.type };
    let outcomeKey = '';
    let payer: PlannedOperation['payer'];
    let status: StablecoinOperationStatus = 'PENDING_PROVIDER';
    let fundingInstructions: OperationRow['fundingInstructions'] = null;
    if (funding.type === 'WIRE') {
      status = 'PENDING_FUNDING';
      fundingInstructions = {
        rail: 'WIRE',
        bankName: 'Paykit Sandbox Reserve Bank',
        beneficiaryName: `${coin.name} reserve`,
        accountNumber: digitsOf(`${id}:account`, 10),
        routingNumber: '021000021',
        reference: id.slice(-12),
        amount: fiatAmount.toString(),
        currency: coin.baseCurrency,
      };
    } else if (funding.type === 'ACH_DEBIT' || funding.type === 'SAME_DAY_ACH_DEBIT') {
      const account = await this.bankAccount(ctx, funding.externalAccountId!, coin.baseCurrency, 'fundingSource.externalAccountId');
      source.externalAccountId = account.id;
      outcomeKey = account.routing.primaryIdentifierLast3;
    } else if (funding.type === 'SERVICE_INTERNAL_ACCOUNT') {
      const account = await this.internalAccount(ctx, funding.accountId!, coin.baseCurrency, 'fundingSource.accountId');
      source.accountId = account.id;
      payer = { account, amount: fiatAmount };
    } else {
      source.sourceTokenIdentifier = funding.sourceTokenIdentifier;
      source.cryptoNetwork = funding.cryptoNetwork;
    }
    const row = this.newOperation(ctx, coin, {
      id,
      type: 'MINT',
      status,
      amount,
      fiatAmount,
      source,
      destination,
      fundingInstructions,
      outcomeKey,
      description: request.description,
      now,
    });
    return this.start(ctx, coin, { row, payer }, request.idempotencyKey, hash);
  }

  async burn(ctx: CallerContext, request: CreateStablecoinBurnMessage): Promise<StablecoinOperation> {
    const opening = await this.opening(ctx, 'BURN', request);
    if ('replay' in opening) return opening.replay;
    const { hash, coin, amount, fiatAmount, now, id } = opening;
    const payout = await this.bankAccount(ctx, request.destination.externalAccountId, coin.baseCurrency, 'destination.externalAccountId');
    const destination: StablecoinOperationDestination = { accountId: payout.id, rail: request.destination.rail };
    const source: StablecoinOperationSource = { type: request.source.type };
    let payer: PlannedOperation['payer'];
    let status: StablecoinOperationStatus = 'PENDING_PROVIDER';
    let fundingInstructions: OperationRow['fundingInstructions'] = null;
    if (request.source.type === 'SERVICE_INTERNAL_ACCOUNT') {
      const account = await this.internalAccount(ctx, request.source.accountId!, coin.currency!, 'source.accountId');
      source.accountId = account.id;
      payer = { account, amount };
    } else if (request.source.type === 'EXTERNAL_ACCOUNT') {
      status = 'PENDING_FUNDING';
      fundingInstructions = { rail: 'SPARK', network: 'SPARK', address: `spark1${digitsOf(`${id}:address`, 24)}`, valueType: coin.providerTokenIdentifier };
    }
    const row = this.newOperation(ctx, coin, {
      id,
      type: 'BURN',
      status,
      amount,
      fiatAmount,
      source,
      destination,
      fundingInstructions,
      outcomeKey: payout.routing.primaryIdentifierLast3,
      description: request.description,
      now,
    });
    row.estimatedDelivery = { rail: request.destination.rail, amount: fiatAmount.toString(), currency: coin.baseCurrency, timing: PAYOUT_RAIL_TIMING[request.destination.rail] };
    return this.start(ctx, coin, { row, payer }, request.idempotencyKey, hash);
  }

  async getOperation(ctx: CallerContext, id: string): Promise<StablecoinOperation> {
    const row = await this.stablecoins.findOperation(ctx.platformId, id);
    if (!row) throw new ServiceError('REFERENCE_NOT_FOUND', `Stablecoin operation ${id} not found`, { stablecoinOperationId: id });
    return toOperation(row, await this.requireStablecoin(ctx.platformId, row.stablecoinId));
  }

  async listOperations(ctx: CallerContext, query: ListStablecoinOperationsMessage): Promise<StablecoinPage<StablecoinOperation>> {
    const coin = await this.requireStablecoin(ctx.platformId, query.stablecoinId);
    const limit = pageLimit(query.limit);
    const { rows, totalCount } = await this.stablecoins.listOperations(ctx.platformId, coin.id, query.operationType, {
      beforeId: decodeCursor(query.cursor, OPERATION_CURSOR),
      limit: limit + 1,
    });
    return { ...toPage(rows, limit, (row) => toOperation(row, coin), OPERATION_CURSOR), totalCount };
  }

  /** Sandbox simulator: the provider reports the external funds of a PENDING_FUNDING operation received. */
  async fund(ctx: CallerContext, id: string): Promise<StablecoinOperation> {
    const current = await this.stablecoins.findOperation(ctx.platformId, id);
    if (!current) throw new ServiceError('REFERENCE_NOT_FOUND', `Stablecoin operation ${id} not found`, { stablecoinOperationId: id });
    const moved = await this.transactions.run(async (manager) => {
      const row = await this.stablecoins.moveOperation(
        manager,
        ctx.platformId,
        id,
        ['PENDING_FUNDING'],
        { status: 'PENDING_PROVIDER', providerStatus: 'funds_received' },
        this.clock.now(),
      );
      if (row) await this.scheduleOperationStep(manager, row);
      return row;
    });
    if (!moved) {
      throw new ServiceError('INVALID_STATE_TRANSITION', `Stablecoin operation ${id} is ${current.status}: only a PENDING_FUNDING operation receives funds`, {
        status: current.status,
      });
    }
    return toOperation(moved, await this.requireStablecoin(ctx.platformId, moved.stablecoinId));
  }

  /** A coin mints and burns once enabled, through a usable link. */
  private async operable(ctx: CallerContext, stablecoinId: string): Promise<StablecoinRow> {
    const coin = await this.requireStablecoin(ctx.platformId, stablecoinId);
    if (coin.serviceOperationsStatus !== 'ENABLED' || !coin.currency) {
      throw new ServiceError('CONFLICT', `Stablecoin ${coin.id} is ${coin.issuanceStatus} and ${coin.serviceOperationsStatus}: it mints and burns once ENABLED`, {
        reason: 'STABLECOIN_NOT_ENABLED',
        issuanceStatus: coin.issuanceStatus,
        serviceOperationsStatus: coin.serviceOperationsStatus,
      });
    }
    this.usable(await this.requireProviderAccount(ctx.platformId, coin.providerAccountId));
    return coin;
  }

  /** The amount in the coin's smallest unit and, exactly, in its base currency's. */
  private convert(coin: StablecoinRow, wire: string): { amount: bigint; fiatAmount: bigint } {
    // eslint-disable-next-line paykit/no-raw-bigint -- issue 39: this file is being split into use cases; the helper (a string-amount helper, still to write) replaces it as the split lands
    const amount = BigInt(wire);
    const base = coin.decimals - 2;
    // eslint-disable-next-line paykit/no-raw-bigint -- issue 39: this file is being split into use cases; the helper (decimalScale) replaces it as the split lands
    const unit = 10n ** BigInt(Math.max(0, base));
    if (amount <= 0n) throw ServiceError.invalidField('amount', 'amount must be greater than 0');
    if (amount % unit !== 0n) {
      throw ServiceError.invalidField('amount', `amount must convert exactly to whole cents of ${coin.baseCurrency}: a multiple of ${unit} for a ${coin.decimals}-decimal coin`);
    }
    const fiatAmount = amount / unit;
    if (!fitsOnWire(amount) || fiatAmount > MAX_TRANSFER_BASE_UNITS * 100n) {
      throw new ServiceError('AMOUNT_OUT_OF_RANGE', `amount exceeds the largest operation (${MAX_TRANSFER_BASE_UNITS} ${coin.baseCurrency})`, { field: 'amount' });
    }
    return { amount, fiatAmount };
  }

  /** A mint's destination: an internal account in the coin, or a Lightning external wallet. */
  private async mintDestination(ctx: CallerContext, coin: StablecoinRow, accountId: string): Promise<StablecoinOperationDestination> {
    if (accountId.startsWith('InternalAccount:')) {
      return { accountId: (await this.internalAccount(ctx, accountId, coin.currency!, 'destination.accountId')).id };
    }
    if (accountId.startsWith('ExternalAccount:')) {
      const account = await this.externalAccounts.get(ctx, accountId);
      if (account.accountInfo.accountType !== 'LIGHTNING' && account.routing.network !== 'LIGHTNING') {
        throw ServiceError.invalidField(
          'destination.accountId',
          `External account ${account.id} is ${account.accountInfo.accountType}: minted coins go to a Lightning wallet (LIGHTNING)`,
        );
      }
      if (!account.routing.canReceivePayments) throw ServiceError.invalidField('destination.accountId', `External account ${account.id} is ${account.status}, not ACTIVE`);
      return { accountId: account.id };
    }
    throw ServiceError.invalidField('destination.accountId', 'destination.accountId must be an InternalAccount: or ExternalAccount: id');
  }

  private async bankAccount(ctx: CallerContext, id: string, currency: string, field: string): Promise<ExternalAccountWithRouting> {
    const account = await this.externalAccounts.get(ctx, id);
    if (account.currency !== currency || account.routing.network !== undefined) {
      throw ServiceError.invalidField(field, `External account ${account.id} holds ${account.currency}: this operation needs a ${currency} bank account`);
    }
    if (!account.routing.canReceivePayments) throw ServiceError.invalidField(field, `External account ${account.id} is ${account.status}, not ACTIVE`);
    return account;
  }

  private async internalAccount(ctx: CallerContext, id: string, currency: string, field: string): Promise<InternalAccountWithBalance> {
    const account = await this.accounts.findById(ctx.platformId, id);
    if (!account) throw accountNotFound(id);
    if (account.currencyCode !== currency) throw new ServiceError('INVALID_CURRENCY', `Internal account ${id} holds ${account.currencyCode}, not ${currency}`, { field });
    if (!NEW_MOVEMENT_STATUSES.includes(account.status)) throw accountNotActive(id, account.status);
    return account;
  }

  private newOperation(
    ctx: CallerContext,
    coin: StablecoinRow,
    op: {
      id: string;
      type: OperationRow['operationType'];
      status: StablecoinOperationStatus;
      amount: bigint;
      fiatAmount: bigint;
      source: StablecoinOperationSource;
      destination: StablecoinOperationDestination;
      fundingInstructions: OperationRow['fundingInstructions'];
      outcomeKey: string;
      description?: string;
      now: Date;
    },
  ): OperationRow {
    return {
      id: op.id,
      platformId: ctx.platformId,
      stablecoinId: coin.id,
      operationType: op.type,
      status: op.status,
      amount: op.amount,
      fiatAmount: op.fiatAmount,
      fiatCurrency: coin.baseCurrency,
      providerAccountId: coin.providerAccountId,
      source: op.source,
      destination: op.destination,
      fundingInstructions: op.fundingInstructions,
      estimatedDelivery: null,
      holdId: null,
      outcomeKey: op.outcomeKey,
      expiresAt: op.status === 'PENDING_FUNDING' ? new Date(op.now.getTime() + FUNDING_WINDOW_MS) : null,
      providerStatus: op.status === 'PENDING_FUNDING' ? 'awaiting_funds' : 'pending',
      failureReason: null,
      description: op.description ?? null,
      createdAt: op.now,
      updatedAt: op.now,
    };
  }

  /** Writes the operation with the payer's hold (the money is set aside now) and its first job, under the Idempotency-Key. */
  private start(ctx: CallerContext, coin: StablecoinRow, planned: PlannedOperation, idempotencyKey: string, hash: string): Promise<StablecoinOperation> {
    const { row, payer } = planned;
    return this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
      if (payer) {
        await this.ledgerService.lockAccountWithin(manager, ctx.platformId, payer.account.id, NEW_MOVEMENT_STATUSES);
        const held = await this.ledgerService.holdWithin(manager, ctx.platformId, payer.account, payer.amount, `${row.id}:hold`, row.id);
        row.holdId = held?.hold.id ?? null;
        await this.internalAccounts.announceBalance(manager, ctx.platformId, payer.account.id);
      }
      await this.stablecoins.insertOperation(manager, row);
      if (row.status === 'PENDING_FUNDING') {
        await this.scheduler.schedule(manager, {
          kind: EXPIRE_STABLECOIN_OPERATION_JOB,
          platformId: ctx.platformId,
          payload: { platformId: ctx.platformId, operationId: row.id },
          delayMs: FUNDING_WINDOW_MS,
          sandboxDelay: true,
          dedupeKey: `${row.id}:expire`,
        });
      } else {
        await this.scheduleOperationStep(manager, row);
      }
      return toOperation(row, coin);
    });
  }

  private async scheduleOperationStep(manager: EntityManager, row: Pick<OperationRow, 'id' | 'platformId' | 'status'>): Promise<void> {
    await this.scheduler.schedule(manager, {
      kind: ADVANCE_STABLECOIN_OPERATION_JOB,
      platformId: row.platformId,
      payload: { platformId: row.platformId, operationId: row.id },
      delayMs: SANDBOX_PROVIDER_STEP_MS,
      sandboxDelay: true,
      dedupeKey: `${row.id}:${row.status}`,
    });
  }

  /**
   * The provider's next step: PENDING_PROVIDER to PROCESSING, then PROCESSING to COMPLETED (the
   * entries post) or FAILED (a hold returns). Each is one conditional update, so a step that runs
   * twice applies once.
   */
  private async advanceOperation(manager: EntityManager, platformId: string, operationId: string): Promise<void> {
    const current = await this.stablecoins.findOperation(platformId, operationId, manager);
    if (!current) return;
    const now = this.clock.now();
    if (current.status === 'PENDING_PROVIDER') {
      const moved = await this.stablecoins.moveOperation(manager, platformId, operationId, ['PENDING_PROVIDER'], { status: 'PROCESSING', providerStatus: 'processing' }, now);
      if (moved) await this.scheduleOperationStep(manager, moved);
      return;
    }
    if (current.status !== 'PROCESSING') return;
    const coin = await this.requireStablecoin(platformId, current.stablecoinId, manager);
    const failure = operationFailure(coin.environment === 'SANDBOX', current.outcomeKey);
    if (failure) {
      const failed = await this.stablecoins.moveOperation(
        manager,
        platformId,
        operationId,
        ['PROCESSING'],
        { status: 'FAILED', providerStatus: failure, failureReason: current.operationType === 'MINT' ? 'FUNDING_FAILED' : 'PAYOUT_FAILED' },
        now,
      );
      if (failed && current.holdId) {
        await this.ledgerService.releaseWithin(manager, platformId, current.holdId, `${operationId}:release`);
        await this.internalAccounts.announceBalance(manager, platformId, current.source.accountId!);
      }
      return;
    }
    const completed = await this.stablecoins.moveOperation(manager, platformId, operationId, ['PROCESSING'], { status: 'COMPLETED', providerStatus: 'complete' }, now);
    if (completed) await this.post(manager, coin, completed);
  }

  /**
   * The entries of a completed operation, one per currency, each balanced:
   * - mint: the payer (external clearing, or the held internal account) pays the fiat into the
   *   reserve; the supply account issues the coins to the destination (its holding account, or
   *   external clearing for a wallet outside);
   * - burn: the source (the held internal account, or external clearing for coins sent in) returns
   *   the coins to the supply account; the reserve pays the fiat out to external clearing.
   */
  private async post(manager: EntityManager, coin: StablecoinRow, op: OperationRow): Promise<void> {
    const coinCurrency = coin.currency!;
    const base = coin.baseCurrency;
    const system = (currency: string, purpose: Parameters<LedgerRepository['systemAccount']>[3]) => this.ledger.systemAccount(manager, op.platformId, currency, purpose);
    const moved: string[] = [];
    if (op.operationType === 'MINT') {
      if (op.holdId) {
        await this.ledgerService.captureWithin(manager, op.platformId, op.holdId, op.fiatAmount, `${op.id}:capture`, 'STABLECOIN_RESERVE', 'STABLECOIN_MINT');
        moved.push(op.source.accountId!);
      } else if (EXTERNAL_FUNDING.has(op.source.type)) {
        await this.ledger.post(manager, {
          platformId: op.platformId,
          kind: 'STABLECOIN_MINT',
          referenceId: op.id,
          currency: base,
          lines: [
            { account: await system(base, 'EXTERNAL_CLEARING'), amount: -op.fiatAmount },
            { account: await system(base, 'STABLECOIN_RESERVE'), amount: op.fiatAmount },
          ],
        });
      }
      const internal = op.destination.accountId.startsWith('InternalAccount:');
      await this.ledger.post(manager, {
        platformId: op.platformId,
        kind: 'STABLECOIN_MINT',
        referenceId: op.id,
        currency: coinCurrency,
        lines: [
          { account: await system(coinCurrency, 'STABLECOIN_SUPPLY'), amount: -op.amount },
          { account: internal ? this.ledger.holdingRef(op.destination.accountId, coinCurrency) : await system(coinCurrency, 'EXTERNAL_CLEARING'), amount: op.amount },
        ],
      });
      if (internal) moved.push(op.destination.accountId);
    } else {
      if (op.holdId) {
        await this.ledgerService.captureWithin(manager, op.platformId, op.holdId, op.amount, `${op.id}:capture`, 'STABLECOIN_SUPPLY', 'STABLECOIN_BURN');
        moved.push(op.source.accountId!);
      } else {
        await this.ledger.post(manager, {
          platformId: op.platformId,
          kind: 'STABLECOIN_BURN',
          referenceId: op.id,
          currency: coinCurrency,
          lines: [
            { account: await system(coinCurrency, 'EXTERNAL_CLEARING'), amount: -op.amount },
            { account: await system(coinCurrency, 'STABLECOIN_SUPPLY'), amount: op.amount },
          ],
        });
      }
      await this.ledger.post(manager, {
        platformId: op.platformId,
        kind: 'STABLECOIN_BURN',
        referenceId: op.id,
        currency: base,
        lines: [
          { account: await system(base, 'STABLECOIN_RESERVE'), amount: -op.fiatAmount },
          { account: await system(base, 'EXTERNAL_CLEARING'), amount: op.fiatAmount },
        ],
      });
    }
    for (const accountId of moved) await this.internalAccounts.announceBalance(manager, op.platformId, accountId);
  }
}
