import { DataSource } from 'typeorm';
import { TestStack } from './test-stack';

/**
 * What the entries referencing `referenceId` (a quote, a transaction) moved, per currency and
 * ledger purpose, purposes that net to zero left out; every currency is checked to sum to zero.
 */
export async function ledgerOf(t: TestStack, platformId: string, referenceId: string): Promise<Record<string, Record<string, number>>> {
  const rows = await t.stack.services
    .get('payments')!
    .get(DataSource)
    .query<Array<{ currency: string; purpose: string; total: string }>>(
      `SELECT l.currency_code AS currency, l.purpose, sum(p.amount)::text AS total
         FROM journal_entry e JOIN posting p ON p.entry_id = e.id JOIN ledger_account l ON l.id = p.account_id
        WHERE e.platform_id = $1 AND e.reference_id = $2 GROUP BY 1, 2`,
      [platformId, referenceId],
    );
  const totals: Record<string, Record<string, number>> = {};
  for (const row of rows) (totals[row.currency] ??= {})[row.purpose] = Number(row.total);
  for (const [currency, purposes] of Object.entries(totals)) {
    expect([currency, Object.values(purposes).reduce((a, b) => a + b, 0)]).toEqual([currency, 0]);
    for (const purpose of Object.keys(purposes)) if (purposes[purpose] === 0) delete purposes[purpose];
    if (Object.keys(purposes).length === 0) delete totals[currency];
  }
  return totals;
}
