import { EntityManager } from 'typeorm';
import { AuthInvalidation, AuthInvalidations, InvalidationSubscriber } from './auth-invalidations';
import { AgentTokenHolder, CredentialsRepository } from './credentials.repository';
import { CredentialsService, VERIFIED_TOKEN_TTL_MS } from './credentials.service';
import { ApiTokenEntity } from './entities/api-token.entity';

/** One shared table behind two gateway replicas, each with its own verification cache. */
function sharedRepository(): CredentialsRepository {
  const rows = new Map<string, ApiTokenEntity>();
  return {
    saveToken: async (_manager: EntityManager, token: ApiTokenEntity) => {
      const row = { ...token, createdAt: new Date(0), updatedAt: new Date(0), revokedAt: null } as ApiTokenEntity;
      rows.set(token.id, row);
      return row;
    },
    findUnrevokedToken: async (id: string) => {
      const row = rows.get(id);
      return row && !row.revokedAt ? row : null;
    },
    revokeToken: async (_manager: EntityManager, id: string) => {
      rows.get(id)!.revokedAt = new Date(0);
    },
  } as unknown as CredentialsRepository;
}

/**
 * Invalidations as AuthInvalidations carries them: to every replica subscribed after the change
 * commits. A replica on a bus of its own stands for one that missed the notification.
 */
function invalidationBus(): AuthInvalidations {
  const subscribers: InvalidationSubscriber[] = [];
  return {
    subscribe: (subscriber: InvalidationSubscriber) => subscribers.push(subscriber),
    transaction: async <T>(changes: AuthInvalidation[], work: (manager: EntityManager) => Promise<T>) => {
      const result = await work({} as EntityManager);
      for (const change of changes) for (const subscriber of subscribers) subscriber.invalidate(change);
      return result;
    },
  } as unknown as AuthInvalidations;
}

const CONFIG = { agentAuthCacheTtlSeconds: 5 };

describe(CredentialsService.name, () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('stops a deleted token at once on every replica that hears of it', async () => {
    const repository = sharedRepository();
    const bus = invalidationBus();
    const here = new CredentialsService(repository, bus, CONFIG);
    const there = new CredentialsService(repository, bus, CONFIG);
    const issued = await here.issueToken('Platform:1', 'sandbox', 'test', undefined, ['VIEW']);
    expect(await there.verifyBasic(issued.tokenId, issued.secret)).toBeDefined();
    await here.revokeToken(issued.tokenId);
    expect(await there.verifyBasic(issued.tokenId, issued.secret)).toBeUndefined();
  });

  it('stops a deleted token at once on the replica that deleted it and within the cache bound on one that missed the notification', async () => {
    const repository = sharedRepository();
    const here = new CredentialsService(repository, invalidationBus(), CONFIG);
    const there = new CredentialsService(repository, invalidationBus(), CONFIG);
    const issued = await here.issueToken('Platform:1', 'sandbox', 'test', undefined, ['VIEW']);
    expect(await here.verifyBasic(issued.tokenId, issued.secret)).toMatchObject({ permissions: ['VIEW'] });
    expect(await there.verifyBasic(issued.tokenId, issued.secret)).toBeDefined();

    await here.revokeToken(issued.tokenId);
    expect(await here.verifyBasic(issued.tokenId, issued.secret)).toBeUndefined();
    expect(await there.verifyBasic(issued.tokenId, issued.secret)).toBeDefined();
    jest.setSystemTime(1_000_000 + VERIFIED_TOKEN_TTL_MS);
    expect(await there.verifyBasic(issued.tokenId, issued.secret)).toBeUndefined();
  });

  it('refuses a wrong secret even while the token is cached', async () => {
    const service = new CredentialsService(sharedRepository(), invalidationBus(), CONFIG);
    const issued = await service.issueToken('Platform:1', 'sandbox', 'test');
    expect(await service.verifyBasic(issued.tokenId, issued.secret)).toMatchObject({ permissions: ['VIEW', 'TRANSACT', 'MANAGE'] });
    expect(await service.verifyBasic(issued.tokenId, `${issued.secret}x`)).toBeUndefined();
  });

  it('keeps a verified agent token until the agent changes, and never past the backstop TTL', async () => {
    let holder: AgentTokenHolder | null = {
      agentId: 'Agent:1',
      platformId: 'Platform:1',
      environment: 'sandbox',
      customerId: 'Customer:1',
      name: 'bot',
      policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 100 } },
      isPaused: false,
      expiresAt: new Date(1_000_000 + 3_600_000),
    };
    const findAgentTokenHolder = jest.fn(async (digest: string) => {
      expect(digest).toMatch(/^[0-9a-f]{64}$/); // the digest, never the token
      return holder && { ...holder };
    });
    const repository = { findAgentTokenHolder } as unknown as CredentialsRepository;
    const bus = invalidationBus();
    const here = new CredentialsService(repository, bus, CONFIG);
    const there = new CredentialsService(repository, bus, CONFIG);

    expect(await there.verifyBearer('gat_x')).toMatchObject({ isPaused: false });
    expect(await there.verifyBearer('gat_x')).toMatchObject({ isPaused: false });
    expect(findAgentTokenHolder).toHaveBeenCalledTimes(1);

    holder = { ...holder, isPaused: true };
    await bus.transaction([{ agentId: 'Agent:1' }], async () => undefined);
    expect(await there.verifyBearer('gat_x')).toMatchObject({ isPaused: true });
    expect(await here.verifyBearer('gat_x')).toMatchObject({ isPaused: true });

    // A change another agent's: this one's entry stays.
    await bus.transaction([{ agentId: 'Agent:2' }], async () => undefined);
    const calls = findAgentTokenHolder.mock.calls.length;
    await there.verifyBearer('gat_x');
    expect(findAgentTokenHolder).toHaveBeenCalledTimes(calls);

    holder = null;
    jest.setSystemTime(1_000_000 + CONFIG.agentAuthCacheTtlSeconds * 1000);
    expect(await there.verifyBearer('gat_x')).toBeUndefined();
  });
});
