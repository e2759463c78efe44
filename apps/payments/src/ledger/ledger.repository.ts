import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { returningRows } from '@paykit/persistence';
import { assertBalanced, JournalEntryInput, LedgerAccountRef, SystemPurpose } from './ledger-entry';

export interface BalanceRow {
  posted: string;
  held: string;
}

export interface PostedEntry {
  entryId: string;
  /** Running totals of the checked accounts after the entry, by account id. */
  balances: Map<string, BalanceRow>;
}

/**
 * The ledger's SQL: balanced entries and holds. Balances are never read, checked and
 * written back by the application: each change is one conditional UPDATE whose WHERE
 * clause is the invariant, so concurrent debits serialize on the row and the loser
 * sees zero rows instead of an overdraft.
 */
@Injectable()
export class LedgerRepository {
  /** Contra account ids never change once committed; only those are cached. */
  private readonly systemAccounts = new Map<string, LedgerAccountRef>();

  async createHoldingAccount(manager: EntityManager, platformId: string, id: string, currency: string): Promise<void> {
    await manager.query(`INSERT INTO ledger_account (id, platform_id, currency_code, purpose, checked) VALUES ($1, $2, $3, 'HOLDING', true)`, [id, platformId, currency]);
  }

  holdingRef(id: string, currency: string): LedgerAccountRef {
    return { id, currency, checked: true };
  }

  /** The platform's contra account for a purpose and currency, created on first use. */
  async systemAccount(manager: EntityManager, platformId: string, currency: string, purpose: SystemPurpose): Promise<LedgerAccountRef> {
    const key = `${platformId}|${currency}|${purpose}`;
    const cached = this.systemAccounts.get(key);
    if (cached) return cached;
    const find = async () =>
      (await manager.query<Array<{ id: string }>>(`SELECT id FROM ledger_account WHERE platform_id = $1 AND currency_code = $2 AND purpose = $3`, [platformId, currency, purpose]));
    const existing = await find();
    if (existing.length > 0) {
      const ref = { id: existing[0].id, currency, checked: false };
      this.systemAccounts.set(key, ref);
      return ref;
    }
    await manager.query(
      `INSERT INTO ledger_account (id, platform_id, currency_code, purpose, checked) VALUES ($1, $2, $3, $4, false)
       ON CONFLICT (platform_id, currency_code, purpose) WHERE purpose <> 'HOLDING' DO NOTHING`,
      [newId('LedgerAccount'), platformId, currency, purpose],
    );
    // Not cached yet: this transaction may still roll back.
    return { id: (await find())[0].id, currency, checked: false };
  }

  /**
   * Writes one balanced entry and moves the running totals of its checked accounts, in
   * account order (a fixed lock order, so two entries never deadlock on each other).
   * An entry that would take a checked account below zero changes nothing: the caller's
   * transaction is aborted with INSUFFICIENT_FUNDS.
   */
  async post(manager: EntityManager, entry: JournalEntryInput): Promise<PostedEntry> {
    assertBalanced(entry);
    const entryId = newId('JournalEntry');
    await manager.query(`INSERT INTO journal_entry (id, platform_id, kind, reference_id, currency_code) VALUES ($1, $2, $3, $4, $5)`, [
      entryId,
      entry.platformId,
      entry.kind,
      entry.referenceId,
      entry.currency,
    ]);
    const values: unknown[] = [];
    const rows = entry.lines.map((line, i) => {
      values.push(entryId, line.account.id, entry.currency, line.amount.toString());
      return `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`;
    });
    await manager.query(`INSERT INTO posting (entry_id, account_id, currency_code, amount) VALUES ${rows.join(', ')}`, values);
    const balances = new Map<string, BalanceRow>();
    const checked = entry.lines.filter((line) => line.account.checked).sort((a, b) => (a.account.id < b.account.id ? -1 : 1));
    for (const line of checked) {
      const release = line.releaseHeld ?? 0n;
      const updated = await returningRows<BalanceRow>(
        manager,
        `UPDATE ledger_account SET posted = posted + $2, held = held - $3, updated_at = now()
          WHERE id = $1 AND checked AND held >= $3 AND posted + $2 - (held - $3) >= 0
          RETURNING posted, held`,
        [line.account.id, line.amount.toString(), release.toString()],
      );
      if (updated.length === 0) throw new ServiceError('INSUFFICIENT_FUNDS', 'The account does not have enough available funds');
      balances.set(line.account.id, updated[0]);
    }
    return { entryId, balances };
  }

  /** Reserves `amount` of the available balance (a pending debit). */
  async placeHold(manager: EntityManager, account: LedgerAccountRef, amount: bigint): Promise<BalanceRow> {
    const updated = await returningRows<BalanceRow>(
      manager,
      `UPDATE ledger_account SET held = held + $2, updated_at = now()
        WHERE id = $1 AND checked AND posted - held >= $2
        RETURNING posted, held`,
      [account.id, amount.toString()],
    );
    if (updated.length === 0) throw new ServiceError('INSUFFICIENT_FUNDS', 'The account does not have enough available funds');
    return updated[0];
  }

  /** Gives a pending hold's amount back to the available balance. */
  async releaseHeld(manager: EntityManager, account: LedgerAccountRef, amount: bigint): Promise<BalanceRow> {
    const updated = await returningRows<BalanceRow>(
      manager,
      `UPDATE ledger_account SET held = held - $2, updated_at = now() WHERE id = $1 AND held >= $2 RETURNING posted, held`,
      [account.id, amount.toString()],
    );
    if (updated.length === 0) throw new Error(`Hold release of ${amount} exceeds the amount held on ${account.id}`);
    return updated[0];
  }

  async balance(manager: EntityManager, accountId: string): Promise<BalanceRow | undefined> {
    const rows = (await manager.query<BalanceRow[]>(`SELECT posted, held FROM ledger_account WHERE id = $1`, [accountId]));
    return rows[0];
  }
}

/** Available balance of a running total. */
export function available(balance: BalanceRow): bigint {
  return BigInt(balance.posted) - BigInt(balance.held);
}
