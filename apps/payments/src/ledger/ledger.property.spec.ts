import fc from 'fast-check';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext, ExternalAccountWithRouting, newId, Transaction, TransferOutMessage } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, IdempotencyStore, JobScheduler, Outbox, OutboxRelay, ScheduleRequest, serviceDataSourceOptions, TransactionRunner } from '@paykit/persistence';
import { RuntimeConfig, SandboxRules } from '@paykit/runtime';
import { ServiceClient } from '@paykit/transport';
import { CustomersClient } from '../counterparties/customers.client';
import { ExternalAccountsClient } from '../counterparties/external-accounts.client';
import { CurrenciesRepository } from '../currencies/currencies.repository';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { InternalAccountEntity } from '../internal-accounts/entities/internal-account.entity';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { InternalAccountsService } from '../internal-accounts/internal-accounts.service';
import { PaymentTransactionEntity } from '../transfers/entities/payment-transaction.entity';
import { TransactionsRepository } from '../transfers/transactions.repository';
import { TransfersService } from '../transfers/transfers.service';
import { TransactionLimitsRepository } from '../transfers/transaction-limits.repository';
import { AdvanceTransferJob } from '../transfers/transfers.jobs';
import { AdvanceTransfer } from '../transfers/use-cases/advance-transfer';
import { CheckTransfer } from '../transfers/use-cases/check-transfer';
import { DailyVolume } from '../transfers/use-cases/daily-volume';
import { MoveTransfer } from '../transfers/use-cases/move-transfer';
import { StartApprovedTransfer } from '../transfers/use-cases/start-approved-transfer';
import { TransactionReader } from '../transfers/use-cases/transaction-reader';
import { TransferFunds } from '../transfers/use-cases/transfer-funds';
import { TransferIn } from '../transfers/use-cases/transfer-in';
import { TransferOut } from '../transfers/use-cases/transfer-out';
import { TransferSteps } from '../transfers/use-cases/transfer-steps';
import { VelocityLimits } from '../transfers/use-cases/velocity-limits';
import { HoldEntity } from './entities/hold.entity';
import { HoldsRepository } from './holds.repository';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { PAYMENTS_MIGRATIONS } from '../migrations';

/**
 * Ledger invariants as properties, on the real SQL (PGlite) and the real services: for any
 * sequence of funds, holds, captures, releases, refunds, credits and transfers (with their scheduled
 * settlement steps, some delivered twice), every entry balances, all postings sum to zero,
 * no available balance is negative, every running total equals the sum of its postings,
 * and every outcome is the one a plain in-memory model predicts.
 */
type Op =
  | { op: 'fund'; account: number; amount: number }
  | { op: 'hold'; account: number; amount: number }
  | { op: 'capture'; hold: number; amount: number }
  | { op: 'release'; hold: number }
  | { op: 'refund'; hold: number; amount: number }
  | { op: 'credit'; account: number; amount: number; repeat: boolean }
  | { op: 'transferOut'; account: number; amount: number; suffix: string }
  | { op: 'transferIn'; account: number; amount: number; suffix: string }
  | { op: 'settle'; redeliver: boolean };

const amount = fc.integer({ min: 1, max: 1_000 });
const account = fc.integer({ min: 0, max: 1 });
const index = fc.nat({ max: 20 });
const suffix = fc.constantFrom('000', '002', '003', '004', '005');
const operation: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('fund' as const), account, amount: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({ op: fc.constant('hold' as const), account, amount }),
  fc.record({ op: fc.constant('capture' as const), hold: index, amount: fc.integer({ min: 1, max: 1_500 }) }),
  fc.record({ op: fc.constant('release' as const), hold: index }),
  fc.record({ op: fc.constant('refund' as const), hold: index, amount }),
  fc.record({ op: fc.constant('credit' as const), account, amount, repeat: fc.boolean() }),
  fc.record({ op: fc.constant('transferOut' as const), account, amount, suffix }),
  fc.record({ op: fc.constant('transferIn' as const), account, amount, suffix }),
  fc.record({ op: fc.constant('settle' as const), redeliver: fc.boolean() }),
);

interface ModelAccount {
  id: string;
  customerId: string;
  posted: bigint;
  held: bigint;
}

interface ModelHold {
  id: string;
  account: ModelAccount;
  amount: bigint;
  status: 'PENDING' | 'CAPTURED' | 'RELEASED';
  captured: bigint;
  refunded: bigint;
}

describe('ledger invariants (property)', () => {
  let dataSource: DataSource;
  let ledgerService: LedgerService;
  let transfers: TransfersService;
  let accounts: InternalAccountsService;
  const jobs: Array<ScheduleRequest<AdvanceTransferJob>> = [];
  let runner: TransactionRunner;

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
    runner = new TransactionRunner(dataSource, { kick: () => undefined } as unknown as OutboxRelay);
    const currencies = new CurrencyCatalog(new CurrenciesRepository(dataSource), { mode: 'embedded' } as RuntimeConfig);
    await currencies.onModuleInit();
    const ledger = new LedgerRepository(dataSource);
    const holds = new HoldsRepository(dataSource);
    const accountsRepository = new InternalAccountsRepository(dataSource);
    const customers = { assertReady: async () => ({}), accountSettings: async () => ({ currencyCodes: ['USD'], embeddedWalletsEnabled: true }) } as unknown as CustomersClient;
    const external = {
      get: async (_: CallerContext, id: string): Promise<ExternalAccountWithRouting> => {
        const [, customerId, last3] = id.split('|');
        return {
          id,
          customerId,
          status: 'ACTIVE',
          currency: 'USD',
          platformAccountId: 'x',
          accountInfo: { accountType: 'USD_ACCOUNT' },
          createdAt: '',
          updatedAt: '',
          routing: { primaryIdentifierLast3: last3, canReceivePayments: true, ownerType: 'CUSTOMER' },
        };
      },
    } as unknown as ExternalAccountsClient;
    const scheduler = {
      register: () => undefined,
      schedule: async (_: EntityManager, request: ScheduleRequest<AdvanceTransferJob>) => void jobs.push(request),
      // A step's next job goes into its statement: kept here as it is written (no step here fails after it).
      scheduleStatement: (requests: Array<ScheduleRequest<AdvanceTransferJob>>) => {
        jobs.push(...requests);
        return { sql: 'SELECT 1', params: [] };
      },
    } as unknown as JobScheduler;
    const outbox = new Outbox();
    // No embedded wallets here: nothing asks wallet-auth for a signature.
    const noWalletAuth = {} as ServiceClient;
    accounts = new InternalAccountsService(accountsRepository, currencies, customers, runner, outbox, noWalletAuth);
    ledgerService = new LedgerService(ledger, holds, accountsRepository, currencies, runner, dataSource, accounts);
    const clock = new Clock(dataSource);
    const transactionsRepository = new TransactionsRepository(dataSource, clock);
    const idempotency = new IdempotencyStore(runner);
    const reader = new TransactionReader(transactionsRepository, currencies, idempotency, dataSource, clock);
    const limits = new TransactionLimitsRepository(dataSource);
    const dailyVolume = new DailyVolume(limits, clock);
    const funds = new TransferFunds(ledgerService, ledger, accounts, new VelocityLimits(limits, currencies), dailyVolume);
    const steps = new TransferSteps(scheduler);
    const check = new CheckTransfer(reader, accountsRepository, external, currencies, customers, new SandboxRules('sandbox'));
    const move = new MoveTransfer(transactionsRepository, reader, funds, steps, idempotency, outbox, clock);
    transfers = new TransfersService(
      new TransferOut(check, move, noWalletAuth),
      new TransferIn(check, move),
      check,
      move,
      new AdvanceTransfer(scheduler, transactionsRepository, reader, funds, steps, outbox, clock),
      new StartApprovedTransfer(transactionsRepository, funds, steps),
      reader,
      dailyVolume,
    );
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('keep every entry balanced and every balance exact for any sequence of movements', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (ops) => {
        const platformId = newId('Platform');
        const ctx: CallerContext = { platformId, environment: 'sandbox', requestId: 'property' };
        const model: ModelAccount[] = [];
        for (let i = 0; i < 2; i++) {
          const customerId = newId('Customer');
          await accounts.provision(platformId, [{ customerId }], { currencyCodes: ['USD'], embeddedWalletsEnabled: true });
          const [row] = await dataSource.query<Array<{ id: string }>>(`SELECT id FROM internal_account WHERE platform_id = $1 AND customer_id = $2`, [platformId, customerId]);
          // Start funded, so holds and transfers meet both enough and too little money.
          await ledgerService.fund(ctx, { accountId: row.id, amount: 1_500 });
          model.push({ id: row.id, customerId, posted: 1_500n, held: 0n });
        }
        const holds: ModelHold[] = [];
        jobs.length = 0;
        const pendingOut = new Map<string, { account: ModelAccount; amount: bigint }>();
        const pendingIn = new Map<string, { account: ModelAccount; amount: bigint }>();
        let key = 0;

        // Transfers from holding accounts are not signed actions: the outcome is always the result.
        const transferOut = async (request: TransferOutMessage): Promise<Transaction> => {
          const outcome = await transfers.transferOut(ctx, request);
          if (!('result' in outcome)) throw new Error('a holding account transfer asked for a signature');
          return outcome.result;
        };

        const expectRefused = async (work: Promise<unknown>, code: string) => {
          const error = await work.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(ServiceError);
          expect((error as ServiceError).code).toBe(code);
        };

        for (const step of ops) {
          key += 1;
          switch (step.op) {
            case 'fund': {
              const target = model[step.account];
              await ledgerService.fund(ctx, { accountId: target.id, amount: step.amount });
              target.posted += BigInt(step.amount);
              break;
            }
            case 'hold': {
              const target = model[step.account];
              const amount = BigInt(step.amount);
              const request = { callerKey: `h${key}`, accountId: target.id, amount: step.amount, currency: 'USD' };
              if (target.posted - target.held < amount) {
                await expectRefused(ledgerService.createHold(ctx, request), 'INVALID_AMOUNT');
              } else {
                const hold = await ledgerService.createHold(ctx, request);
                target.held += amount;
                expect(BigInt(hold.availableBalance)).toBe(target.posted - target.held);
                holds.push({ id: hold.id, account: target, amount, status: 'PENDING', captured: 0n, refunded: 0n });
              }
              break;
            }
            case 'capture': {
              const hold = holds[step.hold % Math.max(holds.length, 1)];
              if (!hold) break;
              const amount = BigInt(step.amount);
              const request = { callerKey: `c${key}`, holdId: hold.id, amount: step.amount };
              if (hold.status !== 'PENDING') {
                await expectRefused(ledgerService.captureHold(ctx, request), 'INVALID_STATE_TRANSITION');
              } else if (hold.account.posted - (hold.account.held - hold.amount) < amount) {
                await expectRefused(ledgerService.captureHold(ctx, request), 'INVALID_AMOUNT');
              } else {
                await ledgerService.captureHold(ctx, request);
                hold.account.posted -= amount;
                hold.account.held -= hold.amount;
                hold.status = 'CAPTURED';
                hold.captured = amount;
              }
              break;
            }
            case 'release': {
              const hold = holds[step.hold % Math.max(holds.length, 1)];
              if (!hold) break;
              if (hold.status !== 'PENDING') {
                await expectRefused(ledgerService.releaseHold(ctx, { callerKey: `r${key}`, holdId: hold.id }), 'INVALID_STATE_TRANSITION');
              } else {
                await ledgerService.releaseHold(ctx, { callerKey: `r${key}`, holdId: hold.id });
                hold.account.held -= hold.amount;
                hold.status = 'RELEASED';
              }
              break;
            }
            case 'refund': {
              const hold = holds[step.hold % Math.max(holds.length, 1)];
              if (!hold) break;
              const amount = BigInt(step.amount);
              const request = { callerKey: `f${key}`, holdId: hold.id, amount: step.amount };
              if (hold.status !== 'CAPTURED') {
                await expectRefused(ledgerService.refund(ctx, request), 'INVALID_STATE_TRANSITION');
              } else if (hold.refunded + amount > hold.captured) {
                await expectRefused(ledgerService.refund(ctx, request), 'AMOUNT_OUT_OF_RANGE');
              } else {
                await ledgerService.refund(ctx, request);
                hold.refunded += amount;
                hold.account.posted += amount;
              }
              break;
            }
            case 'credit': {
              const target = model[step.account];
              const request = { callerKey: `k${key}`, accountId: target.id, amount: step.amount, currency: 'USD' };
              const first = await ledgerService.credit(ctx, request);
              target.posted += BigInt(step.amount);
              // A repeated key answers the first credit and moves nothing.
              if (step.repeat) expect((await ledgerService.credit(ctx, request)).id).toBe(first.id);
              break;
            }
            case 'transferOut':
            case 'transferIn': {
              const target = model[step.account];
              const amount = BigInt(step.amount);
              const external = { accountId: `ExternalAccount|${target.customerId}|${step.suffix}` };
              const immediateFailure = step.suffix === '002' || step.suffix === '003';
              if (step.op === 'transferOut') {
                const request = { source: { accountId: target.id }, destination: external, amount: step.amount };
                if (!immediateFailure && target.posted - target.held < amount) {
                  await expectRefused(transferOut(request), 'INVALID_AMOUNT');
                  break;
                }
                const transaction = await transferOut(request);
                expect(transaction.status).toBe(immediateFailure ? 'FAILED' : 'PENDING');
                if (!immediateFailure) {
                  target.held += amount;
                  pendingOut.set(transaction.id, { account: target, amount });
                }
              } else {
                const transaction = await transfers.transferIn(ctx, { source: external, destination: { accountId: target.id }, amount: step.amount });
                expect(transaction.status).toBe(immediateFailure ? 'FAILED' : 'PENDING');
                if (!immediateFailure) pendingIn.set(transaction.id, { account: target, amount });
              }
              break;
            }
            case 'settle': {
              const due = jobs.splice(0, jobs.length);
              const deliveries = step.redeliver ? [...due, ...due] : due;
              for (const job of deliveries) {
                const payload = job.payload;
                await runner.run((manager) => transfers.advance(payload, manager));
                const terminal = payload.status === 'COMPLETED' || payload.status === 'FAILED';
                const out = pendingOut.get(payload.transactionId);
                if (out && terminal) {
                  if (payload.status === 'COMPLETED') out.account.posted -= out.amount;
                  out.account.held -= out.amount;
                  pendingOut.delete(payload.transactionId);
                }
                const incoming = pendingIn.get(payload.transactionId);
                if (incoming && terminal) {
                  if (payload.status === 'COMPLETED') incoming.account.posted += incoming.amount;
                  pendingIn.delete(payload.transactionId);
                }
              }
              break;
            }
          }
        }

        // Every posting of the platform sums to zero, and so does every entry.
        const [total] = await dataSource.query<Array<{ sum: string }>>(
          `SELECT coalesce(sum(p.amount), 0)::text AS sum FROM posting p JOIN journal_entry e ON e.id = p.entry_id WHERE e.platform_id = $1`,
          [platformId],
        );
        expect(total.sum).toBe('0');
        const unbalanced = await dataSource.query<unknown[]>(
          `SELECT p.entry_id FROM posting p JOIN journal_entry e ON e.id = p.entry_id WHERE e.platform_id = $1 GROUP BY p.entry_id HAVING sum(p.amount) <> 0 OR count(*) < 2`,
          [platformId],
        );
        expect(unbalanced).toEqual([]);
        for (const expected of model) {
          const [row] = await dataSource.query<Array<{ posted: string; held: string; postings: string; pending: string }>>(
            `SELECT l.posted::text AS posted, l.held::text AS held,
                    (SELECT coalesce(sum(amount), 0) FROM posting WHERE account_id = l.id)::text AS postings,
                    (SELECT coalesce(sum(amount), 0) FROM hold WHERE account_id = l.id AND status = 'PENDING')::text AS pending
               FROM ledger_account l WHERE l.id = $1`,
            [expected.id],
          );
          expect(row.posted).toBe(row.postings);
          expect(row.held).toBe(row.pending);
          expect(BigInt(row.posted) - BigInt(row.held) >= 0n).toBe(true);
          expect({ posted: BigInt(row.posted), held: BigInt(row.held) }).toEqual({ posted: expected.posted, held: expected.held });
        }
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('refuses, at commit, an entry whose postings do not balance, and any change to a posting', async () => {
    const platformId = newId('Platform');
    const customerId = newId('Customer');
    await accounts.provision(platformId, [{ customerId }], { currencyCodes: ['USD'], embeddedWalletsEnabled: true });
    const [row] = await dataSource.query<Array<{ id: string }>>(`SELECT id FROM internal_account WHERE platform_id = $1`, [platformId]);
    await expect(
      runner.run(async (manager) => {
        await manager.query(`INSERT INTO journal_entry (id, platform_id, kind, reference_id, currency_code) VALUES ('JournalEntry:x', $1, 'SANDBOX_FUNDING', 'r', 'USD')`, [
          platformId,
        ]);
        await manager.query(`INSERT INTO posting (entry_id, account_id, currency_code, amount) VALUES ('JournalEntry:x', $1, 'USD', 100)`, [row.id]);
      }),
    ).rejects.toThrow(/not balanced/);
    await ledgerService.fund({ platformId, environment: 'sandbox', requestId: 't' }, { accountId: row.id, amount: 100 });
    await expect(dataSource.query(`UPDATE posting SET amount = amount + 1 WHERE account_id = $1`, [row.id])).rejects.toThrow(/immutable/);
    await expect(dataSource.query(`DELETE FROM journal_entry WHERE platform_id = $1`, [platformId])).rejects.toThrow(/immutable/);
  });
});
