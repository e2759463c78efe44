import { EntityManager } from 'typeorm';
import { Clock } from '@paykit/persistence';
import { ServiceClient } from '@paykit/transport';
import { AuthInvalidations } from '../auth/auth-invalidations';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { AgentDeviceCodeEntity } from './entities/agent-device-code.entity';

const agent = {
  id: 'Agent:1',
  platformId: 'Platform:1',
  environment: 'sandbox',
  name: 'bot',
  customerId: 'Customer:1',
  policy: { permissions: [], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1 } },
  isPaused: false,
  isConnected: false,
  createdAt: new Date(),
  updatedAt: new Date(),
  deletedAt: null,
};

function serviceWith(code: Partial<AgentDeviceCodeEntity> | null): { service: AgentsService; inserted: jest.Mock } {
  const inserted = jest.fn();
  const repository = {
    transaction: (work: (manager: EntityManager) => Promise<unknown>) => work({} as EntityManager),
    lockDeviceCode: jest.fn().mockResolvedValue(code && { codeSha256: 'digest', platformId: 'Platform:1', agentId: 'Agent:1', redeemedAt: null, voidedAt: null, ...code }),
    find: jest.fn().mockResolvedValue(agent),
    markRedeemed: jest.fn(),
    insertAccessToken: inserted,
  } as unknown as AgentsRepository;
  return { service: new AgentsService(repository, {} as ServiceClient, {} as AuthInvalidations, { now: () => Clock.real() } as Clock), inserted };
}

describe('AgentsService.redeem', () => {
  it.each([
    ['an unknown code', null, 'REFERENCE_NOT_FOUND'],
    ['a voided code (a newer one was issued)', { expiresAt: new Date(Date.now() + 60_000), voidedAt: new Date() }, 'REFERENCE_NOT_FOUND'],
    ['a code already redeemed', { expiresAt: new Date(Date.now() + 60_000), redeemedAt: new Date() }, 'INVALID_INPUT'],
    ['an expired code', { expiresAt: new Date(Date.now() - 1) }, 'EXPIRED'],
  ])('refuses %s and issues no token', async (_, code, error) => {
    const { service, inserted } = serviceWith(code);
    await expect(service.redeem('AGENT-AAAA-BBBB-CCCC')).rejects.toMatchObject({ code: error });
    expect(inserted).not.toHaveBeenCalled();
  });

  it('issues a token for a live code and stores only its digest', async () => {
    const { service, inserted } = serviceWith({ expiresAt: new Date(Date.now() + 60_000) });
    const redeemed = await service.redeem('agent-aaaa-bbbb-cccc');
    expect(redeemed).toMatchObject({ agentId: 'Agent:1', agentName: 'bot', accessToken: expect.stringMatching(/^gat_[0-9a-f]{64}$/) });
    const stored = inserted.mock.calls[0][1];
    expect(stored.tokenSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(redeemed.accessToken);
  });
});
