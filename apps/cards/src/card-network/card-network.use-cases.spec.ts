import { CallerContext, SimulateAuthorizationRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, JobScheduler, Outbox, TransactionRunner } from '@paykit/persistence';
import { RuntimeConfig, SandboxRules } from '@paykit/runtime';
import { EntityManager } from 'typeorm';
import { CardsRepository } from '../cards/cards.repository';
import { CardEntity } from '../cards/entities/card.entity';
import { INTERRUPTED_AUTHORIZATION_JOB } from './card-network.jobs';
import { CardTransactionsRepository } from './card-transactions.repository';
import { CardTransactionEntity } from './entities/card-transaction.entity';
import { LedgerClient } from './ledger.client';
import { ApplyAdvice } from './use-cases/apply-advice';
import { AuthorizationJobs } from './use-cases/authorization-jobs';
import { AuthorizeCard } from './use-cases/authorize-card';
import { CardTransactionReader } from './use-cases/card-transaction-reader';
import { CardTransactionWriter } from './use-cases/card-transaction-writer';
import { IssuerMoney } from './use-cases/issuer-money';
import { NetworkRules } from './use-cases/issuer-rules';
import { SimulateAuthorization } from './use-cases/simulate-authorization';
import { SimulateReturn } from './use-cases/simulate-return';

const ctx: CallerContext = { platformId: 'platform-1', environment: 'sandbox', requestId: 'spec' };
const USDC = { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 };
const now = new Date('2025-10-13T12:00:00Z');

const card: CardEntity = {
  id: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  platformId: ctx.platformId,
  cardholderId: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  platformCardId: null,
  platformCustomerId: 'emp-1',
  maxSpendPerTransaction: null,
  threeDsPasswordHash: null,
  detailsSeed: null,
  form: 'VIRTUAL',
  state: 'ACTIVE',
  stateReason: null,
  fundingSources: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
  currencyCode: 'USDC',
  last4: '0123',
  brand: 'VISA',
  expMonth: 10,
  expYear: 2028,
  createdAt: now,
  updatedAt: now,
  closedAt: null,
};

function settled(): CardTransactionEntity {
  return {
    id: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
    platformId: ctx.platformId,
    cardId: card.id,
    customerId: card.cardholderId,
    platformCustomerId: 'emp-1',
    accountId: card.fundingSources[0],
    issuerTransactionToken: 'itx_0190f1c27a6b7cc19a2e1f2d3c4b5a69',
    type: 'AUTHORIZATION',
    direction: 'DEBIT',
    status: 'SETTLED',
    merchant: { descriptor: 'SHOP 100' },
    currency: USDC,
    authorizedAmount: 1000n,
    settledAmount: 1000n,
    refundedAmount: 0n,
    returnCount: 0,
    adjustmentCount: 0,
    holdId: 'Hold:1',
    declineReason: null,
    expiryReason: null,
    exception: null,
    forcePosted: false,
    creditClaimedAt: null,
    authorizedAt: now,
    settledAt: now,
    createdAt: now,
    updatedAt: now,
  };
}

function setup(maxSpendPerTransaction: bigint | null = null) {
  const networkCard = {
    id: card.id,
    cardholderId: card.cardholderId,
    state: card.state,
    currencyCode: card.currencyCode,
    accountId: card.fundingSources[0],
    maxSpendPerTransaction,
    platformCustomerId: 'emp-1',
  };
  const cards = { findForNetwork: jest.fn().mockResolvedValue(networkCard) };
  const cardTransactions = {
    findById: jest.fn().mockResolvedValue(settled()),
    reserveReturn: jest.fn().mockResolvedValue(1),
    cancelReturn: jest.fn().mockResolvedValue(undefined),
    insert: jest.fn().mockResolvedValue(undefined),
    insertIfNew: jest.fn().mockResolvedValue(true),
    transition: jest.fn((_manager: unknown, entity: CardTransactionEntity, _from: unknown, changes: Partial<CardTransactionEntity>) => Promise.resolve({ ...entity, ...changes })),
    newRow: { sql: 'INSERT' },
    recordable: { ctes: 'open_card AS (SELECT 1)', condition: 'true' },
  };
  const ledger = { refund: jest.fn(), hold: jest.fn(), release: jest.fn().mockResolvedValue({}), credit: jest.fn().mockResolvedValue({}) };
  const unitOfWork = jest.fn((work: (manager: EntityManager) => Promise<unknown>) => work({} as EntityManager));
  const transactions = { run: unitOfWork, runStatement: unitOfWork };
  const outbox = {
    add: jest.fn().mockResolvedValue(undefined),
    addManyWithInserts: jest.fn((_manager: unknown, _insert: unknown, rows: unknown[]) => Promise.resolve(rows.map(() => true))),
  };
  const scheduler = { register: jest.fn(), schedule: jest.fn(), scheduleBatch: jest.fn().mockResolvedValue(undefined) };
  const repositories = [cards as unknown as CardsRepository, cardTransactions as unknown as CardTransactionsRepository] as const;
  const runner = transactions as unknown as TransactionRunner;
  const clock = { now: () => new Date() } as Clock;
  const rules = new NetworkRules(new SandboxRules('sandbox'));
  const reader = new CardTransactionReader(...repositories);
  const writer = new CardTransactionWriter(repositories[1], runner, outbox as unknown as Outbox);
  const money = new IssuerMoney(ledger as unknown as LedgerClient, writer, clock);
  const jobs = new AuthorizationJobs(scheduler as unknown as JobScheduler, outbox as unknown as Outbox, { deployment: 'sandbox', rpcTimeoutMs: 5000 } as RuntimeConfig);
  const authorizeCard = new AuthorizeCard(...repositories, writer, money, jobs, rules, runner, clock);
  const simulateAuthorization = new SimulateAuthorization(rules, reader, authorizeCard);
  const simulateReturn = new SimulateReturn(rules, reader, repositories[1], writer, ledger as unknown as LedgerClient, runner);
  const applyAdvice = new ApplyAdvice(...repositories, authorizeCard);
  // The use cases under test, by the names the simulators and the worker answer to.
  const service = {
    authorize: (context: CallerContext, request: SimulateAuthorizationRequest) => simulateAuthorization.run(context, request),
    return: (context: CallerContext, request: Parameters<SimulateReturn['run']>[1]) => simulateReturn.run(context, request),
    applyAdvice: (platformId: string, data: Parameters<ApplyAdvice['run']>[1]) => applyAdvice.run(platformId, data),
  };
  return { service, cards, cardTransactions, ledger, outbox, scheduler };
}

describe('card network use cases', () => {
  describe('return', () => {
    it('gives the reserved amount back when the ledger refuses the refund (compensation)', async () => {
      const { service, cardTransactions, ledger, outbox } = setup();
      ledger.refund.mockRejectedValue(new ServiceError('SERVICE_UNAVAILABLE', 'payments down'));
      const request = { cardId: card.id, cardTransactionId: settled().id, amount: 400 };
      await expect(service.return(ctx, request)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(cardTransactions.reserveReturn).toHaveBeenCalledWith(expect.anything(), ctx.platformId, settled().id, 400n);
      expect(cardTransactions.cancelReturn).toHaveBeenCalledWith(expect.anything(), ctx.platformId, settled().id, 400n);
      expect(outbox.add).not.toHaveBeenCalled();
      expect(outbox.addManyWithInserts).not.toHaveBeenCalled();
    });

    it('keys each return of a transaction by its sequence number', async () => {
      const { service, ledger } = setup();
      ledger.refund.mockResolvedValue({});
      await service.return(ctx, { cardId: card.id, cardTransactionId: settled().id, amount: 400 });
      expect(ledger.refund).toHaveBeenCalledWith(ctx, settled().id, 1, 'Hold:1', 400n);
    });
  });

  describe('applyAdvice', () => {
    const advice = {
      cardId: card.id,
      cardTransactionId: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a70',
      issuerTransactionToken: 'itx_0190f1c27a6b7cc19a2e1f2d3c4b5a70',
      amount: 500,
      currency: USDC,
      merchant: { descriptor: 'SHOP 100' },
    };

    it('credits the account once for a new advice', async () => {
      const { service, cardTransactions, ledger } = setup();
      cardTransactions.findById.mockResolvedValueOnce(null);
      await service.applyAdvice(ctx.platformId, advice);
      expect(cardTransactions.insertIfNew).toHaveBeenCalledWith({}, expect.objectContaining({ id: advice.cardTransactionId, direction: 'CREDIT' }));
      expect(ledger.credit).toHaveBeenCalledTimes(1);
      expect(cardTransactions.transition).toHaveBeenCalledWith({}, expect.anything(), ['PENDING'], expect.objectContaining({ status: 'SETTLED' }));
    });

    it('moves no money and raises nothing for a redelivery racing the first delivery (its row already recorded)', async () => {
      const { service, cardTransactions, ledger } = setup();
      // Both deliveries looked before either recorded; this one's insert finds the other's row.
      cardTransactions.findById.mockResolvedValueOnce(null);
      cardTransactions.insertIfNew.mockResolvedValueOnce(false);
      await expect(service.applyAdvice(ctx.platformId, advice)).resolves.toBeUndefined();
      expect(ledger.credit).not.toHaveBeenCalled();
      expect(cardTransactions.transition).not.toHaveBeenCalled();
    });
  });

  describe('authorize', () => {
    it('releases the hold when the card transaction cannot be recorded (compensation)', async () => {
      const { service, outbox, ledger } = setup();
      ledger.hold.mockResolvedValue({ id: 'Hold:9' });
      outbox.addManyWithInserts.mockRejectedValue(new Error('database unavailable'));
      const request = { cardId: card.id, type: 'AUTHORIZATION', amount: 500, currency: USDC, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      await expect(service.authorize(ctx, request)).rejects.toThrow('database unavailable');
      const id = (ledger.hold.mock.calls[0] as unknown[])[1] as string;
      expect(ledger.release).toHaveBeenCalledWith(ctx, id, 'Hold:9');
    });

    it('records the approved authorization and its event in one (batched) statement, guarded against a closed card', async () => {
      const { service, cardTransactions, outbox, ledger } = setup();
      ledger.hold.mockResolvedValue({ id: 'Hold:9' });
      const request = { cardId: card.id, type: 'AUTHORIZATION', amount: 500, currency: USDC, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      await expect(service.authorize(ctx, request)).resolves.toMatchObject({ status: 'CONFIRMED', authorizedAmount: { amount: 500, currency: USDC } });
      expect(outbox.addManyWithInserts).toHaveBeenCalledWith(
        expect.anything(),
        cardTransactions.newRow,
        [
          {
            entity: expect.objectContaining({ status: 'CONFIRMED', holdId: 'Hold:9' }),
            event: expect.objectContaining({ webhookType: 'CARD_TRANSACTION.AUTHORIZED' }),
            guarded: true,
          },
        ],
        cardTransactions.recordable,
      );
      expect(ledger.release).not.toHaveBeenCalled();
    });

    it('schedules its interruption job, committed, before any money moves', async () => {
      const { service, ledger, scheduler } = setup();
      ledger.hold.mockResolvedValue({ id: 'Hold:9' });
      const request = { cardId: card.id, type: 'AUTHORIZATION', amount: 500, currency: USDC, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      await service.authorize(ctx, request);
      const id = (ledger.hold.mock.calls[0] as unknown[])[1] as string;
      expect(scheduler.scheduleBatch).toHaveBeenCalledWith([
        expect.objectContaining({
          kind: INTERRUPTED_AUTHORIZATION_JOB,
          dedupeKey: `${id}:interrupted`,
          delayMs: 15_000,
          payload: expect.objectContaining({ platformId: ctx.platformId }),
        }),
      ]);
      expect(scheduler.scheduleBatch.mock.invocationCallOrder[0]).toBeLessThan(ledger.hold.mock.invocationCallOrder[0]);
    });

    it('undoes the money step and answers SERVICE_UNAVAILABLE when its interruption job ran before it was recorded', async () => {
      const { service, outbox, ledger } = setup();
      ledger.hold.mockResolvedValueOnce({ id: 'Hold:9' }).mockResolvedValueOnce({ id: 'Hold:9', status: 'PENDING' });
      outbox.addManyWithInserts.mockResolvedValueOnce([false]);
      const request = { cardId: card.id, type: 'AUTHORIZATION', amount: 500, currency: USDC, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      await expect(service.authorize(ctx, request)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      const id = (ledger.hold.mock.calls[0] as unknown[])[1] as string;
      // Asked again by the same caller key, the ledger answers the same hold, which is released.
      expect(ledger.hold.mock.calls[1]).toEqual(ledger.hold.mock.calls[1].map((arg: unknown, i: number) => (i === 0 ? arg : (ledger.hold.mock.calls[0] as unknown[])[i])));
      expect(ledger.release).toHaveBeenCalledWith(expect.objectContaining({ platformId: ctx.platformId }), id, 'Hold:9');
      expect(outbox.addManyWithInserts).toHaveBeenCalledTimes(1);
    });

    it('releases the hold and declines with CARD_CLOSED when the card closed while the hold was placed', async () => {
      const { service, cards, cardTransactions, outbox, ledger } = setup();
      ledger.hold.mockResolvedValue({ id: 'Hold:9' });
      outbox.addManyWithInserts.mockResolvedValueOnce([false]);
      const open = (await cards.findForNetwork()) as object;
      cards.findForNetwork.mockResolvedValueOnce(open).mockResolvedValueOnce({ ...open, state: 'CLOSED' });
      const request = { cardId: card.id, type: 'AUTHORIZATION', amount: 500, currency: USDC, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      await expect(service.authorize(ctx, request)).resolves.toMatchObject({ status: 'DECLINED', declineReason: 'CARD_CLOSED' });
      const id = (ledger.hold.mock.calls[0] as unknown[])[1] as string;
      expect(ledger.release).toHaveBeenCalledWith(ctx, id, 'Hold:9');
      expect(outbox.addManyWithInserts).toHaveBeenLastCalledWith(
        expect.anything(),
        cardTransactions.newRow,
        [expect.objectContaining({ entity: expect.objectContaining({ status: 'DECLINED', declineReason: 'CARD_CLOSED' }), guarded: false })],
        cardTransactions.recordable,
      );
    });

    it('declines with INSUFFICIENT_FUNDS when the ledger refuses the hold', async () => {
      const { service, ledger } = setup();
      ledger.hold.mockRejectedValue(new ServiceError('INVALID_AMOUNT', 'no funds', { reason: 'INSUFFICIENT_FUNDS' }));
      const request = { cardId: card.id, type: 'AUTHORIZATION', amount: 500, currency: USDC, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      await expect(service.authorize(ctx, request)).resolves.toMatchObject({
        status: 'DECLINED',
        declineReason: 'INSUFFICIENT_FUNDS',
        authorizedAmount: { amount: 500, currency: USDC },
      });
    });
  });

  describe('limits and currencies', () => {
    it.each([
      [1000n, 1000, 'CONFIRMED', undefined],
      [1000n, 1001, 'DECLINED', 'TRANSACTION_SIZE_LIMIT_EXCEEDED'],
      [null, 1_000_000, 'CONFIRMED', undefined],
    ])('with maxSpendPerTransaction %s an authorization of %s is %s (%s)', async (limit, amount, status, declineReason) => {
      const { service, ledger } = setup(limit);
      ledger.hold.mockResolvedValue({ id: 'Hold:9' });
      const request = { cardId: card.id, type: 'AUTHORIZATION', amount, currency: USDC, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      const answered = await service.authorize(ctx, request);
      expect(answered).toMatchObject({ status, ...(declineReason ? { declineReason } : {}) });
      expect(ledger.hold).toHaveBeenCalledTimes(declineReason ? 0 : 1);
    });

    it('takes USD on a USDC card at par, and refuses another currency naming the field', async () => {
      const { service, ledger } = setup();
      ledger.hold.mockResolvedValue({ id: 'Hold:9' });
      const usd = { cardId: card.id, type: 'AUTHORIZATION', amount: 1250, currency: { code: 'USD' }, merchant: { descriptor: 'SHOP 100' } } as SimulateAuthorizationRequest;
      await expect(service.authorize(ctx, usd)).resolves.toMatchObject({ authorizedAmount: { amount: 12_500_000, currency: USDC }, currency: USDC });
      const eur = { ...usd, currency: { code: 'EUR' } } as SimulateAuthorizationRequest;
      await expect(service.authorize(ctx, eur)).rejects.toMatchObject({ code: 'INVALID_CURRENCY', details: { field: 'currency.code' } });
    });
  });
});
