/** The sandbox's UMA domain: the test counterparties live there. */
export const SANDBOX_UMA_DOMAIN = 'sandbox.uma.money';

/** What a payment to a sandbox counterparty does. */
export type SandboxUmaBehaviour = 'SUCCESS' | 'LONG_PENDING' | 'COMPLIANCE_FAILURE';

export interface SandboxUmaReceiver {
  /** The one currency the counterparty receives. */
  currency: string;
  behaviour: SandboxUmaBehaviour;
  /** What the counterparty shares about its receiver. */
  name: string;
}

/** The spec's sandbox UMA receivers, by the local part of the address. One row per receiver. */
export const SANDBOX_UMA_RECEIVERS: Readonly<Record<string, SandboxUmaReceiver>> = {
  '$success.usd': { currency: 'USD', behaviour: 'SUCCESS', name: 'Sandbox USD Receiver' },
  '$success.eur': { currency: 'EUR', behaviour: 'SUCCESS', name: 'Sandbox EUR Receiver' },
  '$success.mxn': { currency: 'MXN', behaviour: 'SUCCESS', name: 'Sandbox MXN Receiver' },
  '$pending.long.usd': { currency: 'USD', behaviour: 'LONG_PENDING', name: 'Sandbox Slow Receiver' },
  '$fail.compliance.usd': { currency: 'USD', behaviour: 'COMPLIANCE_FAILURE', name: 'Sandbox Blocked Receiver' },
};

/** The sandbox receiver at `address`, if it is one (the address already lowercase). */
export function sandboxUmaReceiver(address: string): SandboxUmaReceiver | undefined {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1) !== SANDBOX_UMA_DOMAIN) return undefined;
  const local = address.slice(0, at);
  return Object.prototype.hasOwnProperty.call(SANDBOX_UMA_RECEIVERS, local) ? SANDBOX_UMA_RECEIVERS[local] : undefined;
}

/** The outcome key a quote to a sandbox UMA receiver stores (see the quote table's UMA rows). */
export function sandboxUmaOutcomeKey(behaviour: SandboxUmaBehaviour): string | null {
  switch (behaviour) {
    case 'SUCCESS':
      return null;
    case 'LONG_PENDING':
      return 'UMA_LONG_PENDING';
    case 'COMPLIANCE_FAILURE':
      return 'UMA_COMPLIANCE_FAILURE';
  }
}
