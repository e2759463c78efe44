import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  StablecoinEstimatedDelivery,
  StablecoinFundingInstructions,
  StablecoinIssuanceStatus,
  StablecoinNetwork,
  StablecoinOperationDestination,
  StablecoinOperationSource,
  StablecoinOperationStatus,
  StablecoinOperationType,
  StablecoinProvider,
  StablecoinProviderAccountStatus,
  StablecoinProviderEnvironment,
  StablecoinServiceOperationsStatus,
} from '@paykit/contracts';
import { amountFromColumn, returningRows } from '@paykit/persistence';

export interface ProviderAccountRow {
  id: string;
  platformId: string;
  provider: StablecoinProvider;
  providerAccountId: string;
  environment: StablecoinProviderEnvironment;
  status: StablecoinProviderAccountStatus;
  apiClientId: string;
  sealedClientSecret: string;
  lastVerifiedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StablecoinRow {
  id: string;
  platformId: string;
  providerAccountId: string;
  provider: StablecoinProvider;
  environment: StablecoinProviderEnvironment;
  name: string;
  symbol: string;
  baseCurrency: string;
  network: StablecoinNetwork;
  decimals: number;
  providerTokenIdentifier: string;
  networkTokenIdentifier: string;
  issuanceStatus: StablecoinIssuanceStatus;
  serviceOperationsStatus: StablecoinServiceOperationsStatus;
  currency: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface OperationRow {
  id: string;
  platformId: string;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  status: StablecoinOperationStatus;
  /** In the coin's smallest unit. */
  amount: bigint;
  /** The same value in the base currency's smallest unit. */
  fiatAmount: bigint;
  fiatCurrency: string;
  providerAccountId: string;
  source: StablecoinOperationSource;
  destination: StablecoinOperationDestination;
  fundingInstructions: StablecoinFundingInstructions | null;
  estimatedDelivery: StablecoinEstimatedDelivery | null;
  /** The hold on an internal account that pays (internal-account funded mints, internal-account burns). */
  holdId: string | null;
  /** What the sandbox outcome is read from (the bank account's last 3 digits), '' when nothing decides it. */
  outcomeKey: string;
  expiresAt: Date | null;
  providerStatus: string | null;
  failureReason: string | null;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Listing {
  beforeId?: string;
  limit: number;
}

type Raw = Record<string, unknown>;
const date = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));
const optionalDate = (value: unknown): Date | null => (value === null || value === undefined ? null : date(value));
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

function toProviderAccount(raw: Raw): ProviderAccountRow {
  return {
    id: raw.id as string,
    platformId: raw.platform_id as string,
    provider: raw.provider as StablecoinProvider,
    providerAccountId: raw.provider_account_id as string,
    environment: raw.environment as StablecoinProviderEnvironment,
    status: raw.status as StablecoinProviderAccountStatus,
    apiClientId: raw.api_client_id as string,
    sealedClientSecret: raw.sealed_client_secret as string,
    lastVerifiedAt: optionalDate(raw.last_verified_at),
    createdAt: date(raw.created_at),
    updatedAt: date(raw.updated_at),
  };
}

function toStablecoin(raw: Raw): StablecoinRow {
  return {
    id: raw.id as string,
    platformId: raw.platform_id as string,
    providerAccountId: raw.provider_account_id as string,
    provider: raw.provider as StablecoinProvider,
    environment: raw.environment as StablecoinProviderEnvironment,
    name: raw.name as string,
    symbol: raw.symbol as string,
    baseCurrency: raw.base_currency as string,
    network: raw.network as StablecoinNetwork,
    decimals: Number(raw.decimals),
    providerTokenIdentifier: raw.provider_token_identifier as string,
    networkTokenIdentifier: raw.network_token_identifier as string,
    issuanceStatus: raw.issuance_status as StablecoinIssuanceStatus,
    serviceOperationsStatus: raw.service_operations_status as StablecoinServiceOperationsStatus,
    currency: (raw.currency as string | null) ?? null,
    createdAt: date(raw.created_at),
    updatedAt: date(raw.updated_at),
  };
}

function toOperation(raw: Raw): OperationRow {
  return {
    id: raw.id as string,
    platformId: raw.platform_id as string,
    stablecoinId: raw.stablecoin_id as string,
    operationType: raw.operation_type as StablecoinOperationType,
    status: raw.status as StablecoinOperationStatus,
    amount: amountFromColumn(raw.amount as string),
    fiatAmount: amountFromColumn(raw.fiat_amount as string),
    fiatCurrency: raw.fiat_currency as string,
    providerAccountId: raw.provider_account_id as string,
    source: json<StablecoinOperationSource>(raw.source),
    destination: json<StablecoinOperationDestination>(raw.destination),
    fundingInstructions: raw.funding_instructions == null ? null : json<StablecoinFundingInstructions>(raw.funding_instructions),
    estimatedDelivery: raw.estimated_delivery == null ? null : json<StablecoinEstimatedDelivery>(raw.estimated_delivery),
    holdId: (raw.hold_id as string | null) ?? null,
    outcomeKey: raw.outcome_key as string,
    expiresAt: optionalDate(raw.expires_at),
    providerStatus: (raw.provider_status as string | null) ?? null,
    failureReason: (raw.failure_reason as string | null) ?? null,
    description: (raw.description as string | null) ?? null,
    createdAt: date(raw.created_at),
    updatedAt: date(raw.updated_at),
  };
}

/** Filters of a list as SQL conditions after `platform_id = $1`, with their parameters. */
function conditions(platformId: string, filter: Record<string, string | undefined>, beforeId?: string): { where: string; params: unknown[] } {
  const params: unknown[] = [platformId];
  const clauses = ['platform_id = $1'];
  for (const [column, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    params.push(value);
    clauses.push(`${column} = $${params.length}`);
  }
  if (beforeId !== undefined) {
    params.push(beforeId);
    clauses.push(`id < $${params.length}`);
  }
  return { where: clauses.join(' AND '), params };
}

/** Provider account links, stablecoins and their operations: every query of the feature, each scoped by platform. */
@Injectable()
export class StablecoinsRepository {
  constructor(private readonly dataSource: DataSource) {}

  // ---- provider account links ----

  async insertProviderAccount(manager: EntityManager, row: ProviderAccountRow): Promise<void> {
    await manager.query(
      `INSERT INTO stablecoin_provider_account (id, platform_id, provider, provider_account_id, environment, status, api_client_id, sealed_client_secret, last_verified_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
      [row.id, row.platformId, row.provider, row.providerAccountId, row.environment, row.status, row.apiClientId, row.sealedClientSecret, row.lastVerifiedAt, row.createdAt],
    );
  }

  /** A new link to the same provider account supersedes the platform's earlier ACTIVE ones. */
  async revokeEarlierLinks(manager: EntityManager, platformId: string, providerAccountId: string, exceptId: string, now: Date): Promise<void> {
    await manager.query(
      `UPDATE stablecoin_provider_account SET status = 'REVOKED', updated_at = $4
        WHERE platform_id = $1 AND provider_account_id = $2 AND id <> $3 AND status = 'ACTIVE'`,
      [platformId, providerAccountId, exceptId, now],
    );
  }

  async findProviderAccount(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<ProviderAccountRow | undefined> {
    const rows = await manager.query<Raw[]>(`SELECT * FROM stablecoin_provider_account WHERE platform_id = $1 AND id = $2`, [platformId, id]);
    return rows[0] && toProviderAccount(rows[0]);
  }

  async providerAccountsFor(platformId: string, provider: StablecoinProvider, environment: StablecoinProviderEnvironment): Promise<ProviderAccountRow[]> {
    const rows = await this.dataSource.query<Raw[]>(`SELECT * FROM stablecoin_provider_account WHERE platform_id = $1 AND provider = $2 AND environment = $3 ORDER BY id DESC`, [
      platformId,
      provider,
      environment,
    ]);
    return rows.map(toProviderAccount);
  }

  async listProviderAccounts(platformId: string, filter: { provider?: string; status?: string }, listing: Listing): Promise<{ rows: ProviderAccountRow[]; totalCount: number }> {
    return this.list('stablecoin_provider_account', platformId, filter, listing, toProviderAccount);
  }

  // ---- stablecoins ----

  async insertStablecoin(manager: EntityManager, row: StablecoinRow): Promise<void> {
    await manager.query(
      `INSERT INTO stablecoin (id, platform_id, provider_account_id, provider, environment, name, symbol, base_currency, network, decimals,
                               provider_token_identifier, network_token_identifier, issuance_status, service_operations_status, currency, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
      [
        row.id,
        row.platformId,
        row.providerAccountId,
        row.provider,
        row.environment,
        row.name,
        row.symbol,
        row.baseCurrency,
        row.network,
        row.decimals,
        row.providerTokenIdentifier,
        row.networkTokenIdentifier,
        row.issuanceStatus,
        row.serviceOperationsStatus,
        row.currency,
        row.createdAt,
      ],
    );
  }

  async findStablecoin(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<StablecoinRow | undefined> {
    const rows = await manager.query<Raw[]>(`SELECT * FROM stablecoin WHERE platform_id = $1 AND id = $2`, [platformId, id]);
    return rows[0] && toStablecoin(rows[0]);
  }

  /** A coin of any platform holding the symbol (it becomes a currency code of the deployment) whose registration did not end. */
  async symbolHolder(symbol: string): Promise<StablecoinRow | undefined> {
    const rows = await this.dataSource.query<Raw[]>(`SELECT * FROM stablecoin WHERE symbol = $1 AND issuance_status NOT IN ('REJECTED', 'FAILED')`, [symbol]);
    return rows[0] && toStablecoin(rows[0]);
  }

  /** Moves the coin's statuses (and sets its currency once enabled); false when it is not where the step starts from. */
  async updateStablecoinStatus(
    manager: EntityManager,
    platformId: string,
    id: string,
    to: { issuanceStatus: StablecoinIssuanceStatus; serviceOperationsStatus: StablecoinServiceOperationsStatus; currency: string | null },
    now: Date,
  ): Promise<StablecoinRow | undefined> {
    const rows = await returningRows<Raw>(
      manager,
      `UPDATE stablecoin SET issuance_status = $3, service_operations_status = $4, currency = coalesce($5, currency), updated_at = $6
        WHERE platform_id = $1 AND id = $2 AND issuance_status NOT IN ('REJECTED', 'FAILED') AND service_operations_status NOT IN ('ENABLED', 'DISABLED')
        RETURNING *`,
      [platformId, id, to.issuanceStatus, to.serviceOperationsStatus, to.currency, now],
    );
    return rows[0] && toStablecoin(rows[0]);
  }

  async listStablecoins(
    platformId: string,
    filter: { issuance_status?: string; service_operations_status?: string; provider?: string },
    listing: Listing,
  ): Promise<{ rows: StablecoinRow[]; totalCount: number }> {
    return this.list('stablecoin', platformId, filter, listing, toStablecoin);
  }

  // ---- operations ----

  async insertOperation(manager: EntityManager, row: OperationRow): Promise<void> {
    await manager.query(
      `INSERT INTO stablecoin_operation (id, platform_id, stablecoin_id, operation_type, status, amount, fiat_amount, fiat_currency, provider_account_id,
                                         source, destination, funding_instructions, estimated_delivery, hold_id, outcome_key, expires_at, provider_status,
                                         failure_reason, description, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13::jsonb, $14, $15, $16, $17, $18, $19, $20, $20)`,
      [
        row.id,
        row.platformId,
        row.stablecoinId,
        row.operationType,
        row.status,
        row.amount.toString(),
        row.fiatAmount.toString(),
        row.fiatCurrency,
        row.providerAccountId,
        JSON.stringify(row.source),
        JSON.stringify(row.destination),
        row.fundingInstructions && JSON.stringify(row.fundingInstructions),
        row.estimatedDelivery && JSON.stringify(row.estimatedDelivery),
        row.holdId,
        row.outcomeKey,
        row.expiresAt,
        row.providerStatus,
        row.failureReason,
        row.description,
        row.createdAt,
      ],
    );
  }

  async findOperation(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<OperationRow | undefined> {
    const rows = await manager.query<Raw[]>(`SELECT * FROM stablecoin_operation WHERE platform_id = $1 AND id = $2`, [platformId, id]);
    return rows[0] && toOperation(rows[0]);
  }

  /**
   * Moves an operation from one of `from` to `to`: one conditional update, so a step, an expiry and
   * the funding simulator never both apply. Undefined when the operation was not in `from`.
   */
  async moveOperation(
    manager: EntityManager,
    platformId: string,
    id: string,
    from: readonly StablecoinOperationStatus[],
    to: { status: StablecoinOperationStatus; providerStatus?: string; failureReason?: string },
    now: Date,
  ): Promise<OperationRow | undefined> {
    const rows = await returningRows<Raw>(
      manager,
      `UPDATE stablecoin_operation SET status = $4, provider_status = coalesce($5, provider_status), failure_reason = $6, updated_at = $7
        WHERE platform_id = $1 AND id = $2 AND status = ANY ($3::text[])
        RETURNING *`,
      [platformId, id, [...from], to.status, to.providerStatus ?? null, to.failureReason ?? null, now],
    );
    return rows[0] && toOperation(rows[0]);
  }

  async listOperations(platformId: string, stablecoinId: string, operationType: string | undefined, listing: Listing): Promise<{ rows: OperationRow[]; totalCount: number }> {
    return this.list('stablecoin_operation', platformId, { stablecoin_id: stablecoinId, operation_type: operationType }, listing, toOperation);
  }

  private async list<Row>(
    table: string,
    platformId: string,
    filter: Record<string, string | undefined>,
    listing: Listing,
    map: (raw: Raw) => Row,
  ): Promise<{ rows: Row[]; totalCount: number }> {
    const page = conditions(platformId, filter, listing.beforeId);
    const all = conditions(platformId, filter);
    const [rows, count] = await Promise.all([
      this.dataSource.query<Raw[]>(`SELECT * FROM ${table} WHERE ${page.where} ORDER BY id DESC LIMIT ${Number(listing.limit)}`, page.params),
      this.dataSource.query<Array<{ count: string | number }>>(`SELECT count(*) AS count FROM ${table} WHERE ${all.where}`, all.params),
    ]);
    return { rows: rows.map(map), totalCount: Number(count[0].count) };
  }
}
