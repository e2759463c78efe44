import { Page } from '../api';
import { LoadError, Status, useConsole, useLoad, When } from '../shared';

interface ExternalAccount {
  id: string;
  customerId?: string;
  status: string;
  currency: string;
  beneficiaryVerificationStatus?: string;
  accountInfo?: { accountType?: string; accountNumber?: string; iban?: string; clabeNumber?: string; address?: string };
  createdAt: string;
}

/** The last digits only: the console never shows a whole account number. */
function maskedIdentifier(info: ExternalAccount['accountInfo']): string {
  const identifier = info?.accountNumber ?? info?.iban ?? info?.clabeNumber ?? info?.address;
  return identifier ? `…${identifier.slice(-4)}` : '';
}

/** Customers' and the platform's external accounts, with their status and name verification. */
export function ExternalAccountsPage() {
  const { call } = useConsole();
  const customers = useLoad(() => call<Page<ExternalAccount>>('GET', '/customers/external-accounts?limit=100'), []);
  const platform = useLoad(() => call<Page<ExternalAccount>>('GET', '/platform/external-accounts?limit=100'), []);
  return (
    <>
      <p class="hint">Create them with POST /customers/external-accounts; the last 3 digits of the account number pick the sandbox outcome (SPEC.md).</p>
      <LoadError error={customers.error ?? platform.error} />
      <table class="external-accounts">
        <thead>
          <tr>
            <th>Account</th>
            <th>Owner</th>
            <th>Type</th>
            <th>Identifier</th>
            <th>Currency</th>
            <th>Status</th>
            <th>Name verification</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {[...(customers.value?.data ?? []), ...(platform.value?.data ?? [])].map((account) => (
            <tr key={account.id} data-id={account.id}>
              <td class="id">{account.id}</td>
              <td class="id">{account.customerId ?? 'platform'}</td>
              <td>{account.accountInfo?.accountType}</td>
              <td>{maskedIdentifier(account.accountInfo)}</td>
              <td>{account.currency}</td>
              <td>
                <Status value={account.status} />
              </td>
              <td>
                <Status value={account.beneficiaryVerificationStatus} />
              </td>
              <td>
                <When at={account.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
