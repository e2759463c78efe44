import { operationFailure, registrationPath, sandboxLinkStatus, sandboxProviderAccountId, sandboxTokenMetadata } from './stablecoins.sandbox';
import { CredentialVault } from './credential-vault';

describe('stablecoins sandbox provider', () => {
  describe(sandboxLinkStatus.name, () => {
    it.each([
      ['client-002', 'INVALID'],
      ['client-001', 'ACTIVE'],
      ['provider_client_123', 'ACTIVE'],
    ])('apiClientId %s links %s', (apiClientId, status) => {
      expect(sandboxLinkStatus(apiClientId)).toBe(status);
    });

    it('names the same provider account for the same client id, another for another', () => {
      expect(sandboxProviderAccountId('a')).toBe(sandboxProviderAccountId('a'));
      expect(sandboxProviderAccountId('a')).not.toBe(sandboxProviderAccountId('b'));
    });
  });

  describe(registrationPath.name, () => {
    it.each([
      ['ACME002', ['REJECTED/NOT_ENABLED']],
      ['ACME003', ['PROVISIONING/NOT_ENABLED', 'FAILED/NOT_ENABLED']],
      ['ACME004', ['PROVISIONING/NOT_ENABLED', 'PROVISIONED/PENDING_APPROVAL', 'PROVISIONED/DISABLED']],
      ['ACME', ['PROVISIONING/NOT_ENABLED', 'PROVISIONED/PENDING_APPROVAL', 'PROVISIONED/ENABLING', 'PROVISIONED/ENABLED']],
    ])('token %s goes %j', (token, path) => {
      expect(registrationPath(true, token).map((step) => `${step.issuanceStatus}/${step.serviceOperationsStatus}`)).toEqual(path);
    });

    it('outside the sandbox every coin takes the enabled path', () => {
      expect(registrationPath(false, 'ACME002').at(-1)).toEqual({ issuanceStatus: 'PROVISIONED', serviceOperationsStatus: 'ENABLED' });
    });
  });

  describe(sandboxTokenMetadata.name, () => {
    it.each([
      ['ACME', true],
      ['USD1', true],
      ['acme', false],
      ['AB', false],
      ['TOOLONGSYM', false],
      ['AC ME', false],
    ])('knows %s: %s', (token, known) => {
      expect(sandboxTokenMetadata(token) !== undefined).toBe(known);
    });
  });

  describe(operationFailure.name, () => {
    it.each([
      ['002', 'insufficient_funds'],
      ['003', 'account_closed_or_invalid'],
      ['004', 'rejected_by_bank'],
      ['005', 'timed_out'],
      ['000', undefined],
      ['', undefined],
    ])('a bank account ending %s: %s', (suffix, failure) => {
      expect(operationFailure(true, suffix)).toBe(failure);
      expect(operationFailure(false, suffix)).toBeUndefined();
    });
  });
});

describe(CredentialVault.name, () => {
  const vault = new CredentialVault(Buffer.alloc(32, 7));

  it('opens what it sealed for the same platform, never in clear', () => {
    const sealed = vault.seal('Platform:1', 'the-secret');
    expect(sealed).not.toContain('the-secret');
    expect(vault.open('Platform:1', sealed)).toBe('the-secret');
    expect(vault.seal('Platform:1', 'the-secret')).not.toBe(sealed);
  });

  it('does not open a secret copied to another platform, or tampered with', () => {
    const sealed = vault.seal('Platform:1', 'the-secret');
    expect(() => vault.open('Platform:2', sealed)).toThrow();
    const [version, iv, tag, body] = sealed.split('.');
    expect(() => vault.open('Platform:1', [version, iv, tag, `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`].join('.'))).toThrow();
    expect(() => new CredentialVault(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
