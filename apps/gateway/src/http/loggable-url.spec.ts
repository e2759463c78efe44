import { loggableUrl } from './loggable-url';

describe(loggableUrl.name, () => {
  it.each([
    ['/2025-10-13/agents/device-codes/ABCD-1234/status', '/2025-10-13/agents/device-codes/[redacted]/status'],
    ['/2025-10-13/agents/device-codes/ABCD-1234/redeem', '/2025-10-13/agents/device-codes/[redacted]/redeem'],
    ['/2025-10-13/invitations/INV-42/claim', '/2025-10-13/invitations/[redacted]/claim'],
    ['/2025-10-13/invitations/INV-42', '/2025-10-13/invitations/[redacted]'],
    ['/card-reveal/tok_abc?x=1', '/card-reveal/[redacted]?x=1'],
    ['/kyc/tok_abc', '/kyc/[redacted]'],
    ['/2025-10-13/transactions?accountIdentifier=001234567890&limit=5', '/2025-10-13/transactions?accountIdentifier=[redacted]&limit=5'],
    [
      '/2025-10-13/transactions?senderAccountIdentifier=1&receiverAccountIdentifier=2',
      '/2025-10-13/transactions?senderAccountIdentifier=[redacted]&receiverAccountIdentifier=[redacted]',
    ],
    // A percent-encoded name is still the name.
    ['/2025-10-13/transactions?account%49dentifier=001234567890', '/2025-10-13/transactions?account%49dentifier=[redacted]'],
    // What the list does not name is kept: ids, filters, the device-code collection itself.
    ['/2025-10-13/customers/Customer:1?limit=5', '/2025-10-13/customers/Customer:1?limit=5'],
    ['/2025-10-13/agents/Agent:1/device-codes', '/2025-10-13/agents/Agent:1/device-codes'],
    ['/2025-10-13/invitations', '/2025-10-13/invitations'],
  ])('%s is logged as %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });
});
