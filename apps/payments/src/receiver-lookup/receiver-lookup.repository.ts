import { Injectable } from '@nestjs/common';
import { PayerDataFieldRequirement, tenantEnvironment } from '@paykit/contracts';
import { DataSource, EntityManager } from 'typeorm';

export type LookupKind = 'UMA_ADDRESS' | 'EXTERNAL_ACCOUNT';

/** A kept receiver lookup: the receiver (UMA address or external account id) and what it asks of the payer. */
export interface ReceiverLookupRecord {
  kind: LookupKind;
  target: string;
  requiredPayerDataFields: PayerDataFieldRequirement[];
}

/** A customer of this deployment reachable at a UMA address. */
export interface DirectoryEntry {
  platformId: string;
  customerId: string;
  umaAddress: string;
}

/** Receiver lookups (scoped by platform) and the deployment's UMA directory. */
@Injectable()
export class ReceiverLookupRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A lookup as answered: what it looked up and the payer data its receiver asked for (a quote naming it checks both). */
  async insertLookup(platformId: string, id: string, kind: LookupKind, target: string, requiredPayerDataFields: PayerDataFieldRequirement[]): Promise<void> {
    await this.dataSource.query(`INSERT INTO receiver_lookup (id, platform_id, kind, target, required_payer_data_fields) VALUES ($1, $2, $3, $4, $5::jsonb)`, [
      id,
      platformId,
      kind,
      target,
      JSON.stringify(requiredPayerDataFields),
    ]);
  }

  async findLookup(platformId: string, id: string): Promise<ReceiverLookupRecord | undefined> {
    const rows = await this.dataSource.query<Array<{ kind: LookupKind; target: string; required: PayerDataFieldRequirement[] | string }>>(
      `SELECT kind, target, required_payer_data_fields AS required FROM receiver_lookup WHERE platform_id = $1 AND id = $2`,
      [platformId, id],
    );
    if (!rows[0]) return undefined;
    const { kind, target, required } = rows[0];
    return { kind, target, requiredPayerDataFields: typeof required === 'string' ? (JSON.parse(required) as PayerDataFieldRequirement[]) : required };
  }

  /**
   * Keeps customers' addresses (or their absence) as the customers service last announced them:
   * one statement for a batch, in which a customer's last announcement wins.
   */
  async setAddresses(platformId: string, announced: Array<{ customerId: string; umaAddress?: string }>, manager: EntityManager = this.dataSource.manager): Promise<void> {
    const latest = new Map(announced.map(({ customerId, umaAddress }) => [customerId, umaAddress?.toLowerCase() ?? null]));
    await manager.query(
      `WITH latest AS (
         SELECT * FROM unnest($2::text[], $3::text[]) AS l(customer_id, uma_address)
       ), removed AS (
         DELETE FROM uma_directory d USING latest l
          WHERE d.platform_id = $1 AND d.customer_id = l.customer_id AND l.uma_address IS NULL
       )
       INSERT INTO uma_directory (platform_id, customer_id, uma_address)
       SELECT $1, customer_id, uma_address FROM latest WHERE uma_address IS NOT NULL
       ON CONFLICT (platform_id, customer_id) DO UPDATE SET uma_address = EXCLUDED.uma_address, updated_at = now()`,
      [platformId, [...latest.keys()], [...latest.values()]],
    );
  }

  /**
   * The customer at `address`, across the deployment's platforms of the caller's environment (a
   * sandbox tenant never reaches a production one, nor the reverse: sandbox money stays in the
   * sandbox): the caller's own customer first; an address two other platforms both claim
   * resolves to neither.
   */
  async findByAddress(callerPlatformId: string, address: string): Promise<DirectoryEntry | undefined> {
    // One row per platform at most (an address is unique within a platform): few rows to filter here.
    const all = await this.dataSource.query<Array<{ platform_id: string; customer_id: string; uma_address: string }>>(
      `SELECT platform_id, customer_id, uma_address FROM uma_directory WHERE uma_address = $1 ORDER BY (platform_id = $2) DESC`,
      [address, callerPlatformId],
    );
    const rows = all.filter((row) => tenantEnvironment(row.platform_id) === tenantEnvironment(callerPlatformId));
    if (rows.length === 0) return undefined;
    if (rows[0].platform_id !== callerPlatformId && rows.length > 1) return undefined;
    return { platformId: rows[0].platform_id, customerId: rows[0].customer_id, umaAddress: rows[0].uma_address };
  }
}
