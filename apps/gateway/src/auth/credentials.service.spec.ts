import { CredentialsRepository } from './credentials.repository';
import { CredentialsService, VERIFIED_TOKEN_TTL_MS } from './credentials.service';
import { ApiTokenEntity } from './entities/api-token.entity';

/** One shared table behind two gateway replicas, each with its own verification cache. */
function sharedRepository(): CredentialsRepository {
  const rows = new Map<string, ApiTokenEntity>();
  return {
    saveToken: async (token: ApiTokenEntity) => {
      const row = { ...token, createdAt: new Date(0), updatedAt: new Date(0), revokedAt: null } as ApiTokenEntity;
      rows.set(token.id, row);
      return row;
    },
    findUnrevokedToken: async (id: string) => {
      const row = rows.get(id);
      return row && !row.revokedAt ? row : null;
    },
    revokeToken: async (id: string) => {
      rows.get(id)!.revokedAt = new Date(0);
    },
  } as unknown as CredentialsRepository;
}

describe(CredentialsService.name, () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('stops a deleted token at once on the replica that deleted it and within the cache bound on the others', async () => {
    const repository = sharedRepository();
    const here = new CredentialsService(repository);
    const there = new CredentialsService(repository);
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
    const service = new CredentialsService(sharedRepository());
    const issued = await service.issueToken('Platform:1', 'sandbox', 'test');
    expect(await service.verifyBasic(issued.tokenId, issued.secret)).toMatchObject({ permissions: ['VIEW', 'TRANSACT', 'MANAGE'] });
    expect(await service.verifyBasic(issued.tokenId, `${issued.secret}x`)).toBeUndefined();
  });
});
