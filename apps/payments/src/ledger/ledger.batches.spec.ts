import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { CallerContext, Hold, newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Outbox, OutboxRelay, serviceDataSourceOptions, TransactionRunner } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { ServiceClient } from '@paykit/transport';
import { CustomersClient } from '../counterparties/customers.client';
import { CurrenciesRepository } from '../currencies/currencies.repository';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { InternalAccountEntity } from '../internal-accounts/entities/internal-account.entity';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { InternalAccountsService } from '../internal-accounts/internal-accounts.service';
import { PaymentTransactionEntity } from '../transfers/entities/payment-transaction.entity';
import { HoldEntity } from './entities/hold.entity';
import { HoldsRepository } from './holds.repository';
import { LedgerOutcome } from './ledger-outcomes';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { PAYMENTS_MIGRATIONS } from '../migrations';

/**
 * Holds and captures sent at once share batch statements; each must be answered as if it ran
 * alone in some order. For any burst of concurrent holds on two accounts, then concurrent
 * captures of the holds placed (some above their hold), on the real SQL (PGlite):
 * the answers chain like a serial run, refusals are exactly the requests the money could not
 * cover, and every ledger invariant holds afterwards.
 */
describe('ledger batches (property)', () => {
  let dataSource: DataSource;
  let ledgerService: LedgerService;
  let accounts: InternalAccountsService;
  /** Requests per statement, and whether a statement of several left some SHORT (so some ran again alone). */
  const statements: Array<{ size: number; short: boolean }> = [];

  beforeAll(async () => {
    const config = { mode: 'embedded', embeddedDataDir: 'memory', sandboxTimeScale: 1 } as RuntimeConfig;
    dataSource = new DataSource(
      serviceDataSourceOptions(config, {
        service: 'payments',
        entities: [InternalAccountEntity, HoldEntity, PaymentTransactionEntity],
        migrations: PAYMENTS_MIGRATIONS,
      }),
    );
    await dataSource.initialize();
    const runner = new TransactionRunner(dataSource, { kick: () => undefined } as unknown as OutboxRelay);
    const currencies = new CurrencyCatalog(new CurrenciesRepository(dataSource), { mode: 'embedded' } as RuntimeConfig);
    await currencies.onModuleInit();
    const ledger = new LedgerRepository(dataSource);
    const record = (size: number, outcomes: LedgerOutcome[]) => {
      statements.push({ size, short: outcomes.some((outcome) => outcome.status === 'SHORT') });
      return outcomes;
    };
    const placeHolds = ledger.placeHolds.bind(ledger);
    const captureHolds = ledger.captureHolds.bind(ledger);
    jest.spyOn(ledger, 'placeHolds').mockImplementation(async (holds, manager) => record(holds.length, await placeHolds(holds, manager)));
    jest.spyOn(ledger, 'captureHolds').mockImplementation(async (captures, manager) => record(captures.length, await captureHolds(captures, manager)));
    const accountsRepository = new InternalAccountsRepository(dataSource);
    const customers = { accountSettings: async () => ({ currencyCodes: ['USD'], embeddedWalletsEnabled: true }) } as unknown as CustomersClient;
    // No privacy changes here: nothing asks wallet-auth for a signature.
    accounts = new InternalAccountsService(accountsRepository, currencies, customers, runner, new Outbox(), {} as ServiceClient);
    ledgerService = new LedgerService(ledger, new HoldsRepository(dataSource), accountsRepository, currencies, runner, dataSource, accounts);
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  const settle = <T>(work: Promise<T>): Promise<T | ServiceError> => work.catch((error: unknown) => error as ServiceError);

  /**
   * Answers that chain like a serial run of steps that never raise the balance: ordered by the
   * balance they report, each is the one before less its amount.
   */
  function expectSerialChain(start: bigint, steps: Array<{ delta: bigint; after: bigint }>): bigint {
    let balance = start;
    const serial = [...steps].sort((a, b) => (a.after !== b.after ? (a.after > b.after ? -1 : 1) : a.delta > b.delta ? -1 : a.delta < b.delta ? 1 : 0));
    for (const step of serial) {
      balance -= step.delta;
      expect(step.after).toBe(balance);
    }
    return balance;
  }

  it('answers each of many concurrent holds and captures as if it had run alone', async () => {
    const request = fc.record({ account: fc.integer({ min: 0, max: 1 }), amount: fc.integer({ min: 1, max: 400 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(request, { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 40, maxLength: 40 }),
        async (holdRequests, captureOffsets) => {
          const platformId = newId('Platform');
          const ctx: CallerContext = { platformId, environment: 'sandbox', requestId: 'batches' };
          const funded = [2_000n, 700n];
          const ids: string[] = [];
          for (const amount of funded) {
            const customerId = newId('Customer');
            await accounts.provision(platformId, [{ customerId }], { currencyCodes: ['USD'], embeddedWalletsEnabled: true });
            const [row] = await dataSource.query<Array<{ id: string }>>(`SELECT id FROM internal_account WHERE platform_id = $1 AND customer_id = $2`, [platformId, customerId]);
            await ledgerService.fund(ctx, { accountId: row.id, amount: Number(amount) });
            ids.push(row.id);
          }

          // A burst of holds.
          const holdAnswers = await Promise.all(
            holdRequests.map((r, i) => settle(ledgerService.createHold(ctx, { callerKey: `h${i}`, accountId: ids[r.account], amount: r.amount, currency: 'USD' }))),
          );
          const available: bigint[] = [];
          for (const [account, id] of ids.entries()) {
            const mine = holdRequests.map((r, i) => ({ r, answer: holdAnswers[i] })).filter(({ r }) => r.account === account);
            const placed = mine.filter(({ answer }) => !(answer instanceof ServiceError)).map(({ answer }) => answer as Hold);
            available[account] = expectSerialChain(
              funded[account],
              placed.map((hold) => ({ delta: BigInt(hold.amount), after: BigInt(hold.availableBalance) })),
            );
            for (const { r, answer } of mine.filter(({ answer }) => answer instanceof ServiceError)) {
              expect((answer as ServiceError).code).toBe('INVALID_AMOUNT');
              // Refused only if it did not fit even at the end (the balance only went down).
              expect(BigInt(r.amount) > available[account]).toBe(true);
            }
            expect(placed.every((hold) => hold.accountId === id && hold.status === 'PENDING')).toBe(true);
          }

          // A burst of captures of every hold placed, some above their hold (below is the sequential property's).
          const placed = holdAnswers.filter((answer): answer is Hold => !(answer instanceof ServiceError));
          const captures = placed.map((hold, i) => ({ hold, amount: hold.amount + captureOffsets[i] }));
          const captureAnswers = await Promise.all(
            captures.map(({ hold, amount }) => settle(ledgerService.captureHold(ctx, { callerKey: `c-${hold.id}`, holdId: hold.id, amount }))),
          );
          for (const [account, id] of ids.entries()) {
            // A capture above its hold takes the excess from the available balance.
            const mine = captures.map((capture, i) => ({ ...capture, answer: captureAnswers[i] })).filter(({ hold }) => hold.accountId === id);
            const done = mine.filter(({ answer }) => !(answer instanceof ServiceError));
            const final = expectSerialChain(
              available[account],
              done.map(({ hold, amount, answer }) => ({ delta: BigInt(amount - hold.amount), after: BigInt((answer as Hold).availableBalance) })),
            );
            for (const { hold, amount, answer } of mine.filter(({ answer }) => answer instanceof ServiceError)) {
              expect((answer as ServiceError).code).toBe('INVALID_AMOUNT');
              expect(BigInt(amount - hold.amount) > final).toBe(true);
            }
            for (const { amount, answer } of done) expect(answer).toMatchObject({ status: 'CAPTURED', capturedAmount: amount });
          }

          // The ledger: balanced entries, running totals equal to their postings and pending holds.
          const unbalanced = await dataSource.query<unknown[]>(
            `SELECT p.entry_id FROM posting p JOIN journal_entry e ON e.id = p.entry_id WHERE e.platform_id = $1 GROUP BY p.entry_id HAVING sum(p.amount) <> 0 OR count(*) <> 2`,
            [platformId],
          );
          expect(unbalanced).toEqual([]);
          for (const id of ids) {
            const [row] = await dataSource.query<Array<{ posted: string; held: string; postings: string; pending: string }>>(
              `SELECT l.posted::text AS posted, l.held::text AS held,
                      (SELECT coalesce(sum(amount), 0) FROM posting WHERE account_id = l.id)::text AS postings,
                      (SELECT coalesce(sum(amount), 0) FROM hold WHERE account_id = l.id AND status = 'PENDING')::text AS pending
                 FROM ledger_account l WHERE l.id = $1`,
              [id],
            );
            expect(row.posted).toBe(row.postings);
            expect(row.held).toBe(row.pending);
            expect(BigInt(row.posted) - BigInt(row.held) >= 0n).toBe(true);
          }
        },
      ),
      { numRuns: 25 },
    );
    // The bursts did share statements, and some batch was short only as a whole.
    expect(Math.max(...statements.map((statement) => statement.size))).toBeGreaterThan(1);
    expect(statements.some((statement) => statement.size > 1 && statement.short)).toBe(true);
  }, 120_000);
});
