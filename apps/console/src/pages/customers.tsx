import { useState } from 'preact/hooks';
import { money, Page, query } from '../api';
import { ActionButton, field, LoadError, Status, useConsole, useLoad, When } from '../shared';

export interface Customer {
  id: string;
  platformCustomerId?: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  fullName?: string;
  businessInfo?: { legalName?: string };
  email?: string;
  kycStatus?: string;
  kybStatus?: string;
  createdAt: string;
}

export interface Amount {
  amount: number;
  currency: { code: string; decimals?: number };
}

export interface InternalAccount {
  id: string;
  customerId?: string;
  type: string;
  status: string;
  balance: Amount;
}

export function customerName(customer: Customer): string {
  return customer.fullName ?? customer.businessInfo?.legalName ?? customer.platformCustomerId ?? customer.id;
}

/** Customers with their KYC state; one opened shows its internal accounts and balances. */
export function CustomersPage() {
  const { call } = useConsole();
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const customers = useLoad(() => call<Page<Customer>>('GET', '/customers?limit=100'), []);
  return (
    <>
      <CreateCustomer
        onCreated={async (customer) => {
          await customers.reload();
          setSelected(customer.id);
        }}
      />
      <LoadError error={customers.error} />
      <table class="customers">
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>KYC / KYB</th>
            <th>Id</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {(customers.value?.data ?? []).map((customer) => (
            <tr key={customer.id} data-id={customer.id} class={customer.id === selected ? 'selected' : undefined} onClick={() => setSelected(customer.id)}>
              <td>{customerName(customer)}</td>
              <td>{customer.customerType}</td>
              <td class="kyc-status">
                <Status value={customer.customerType === 'BUSINESS' ? customer.kybStatus : customer.kycStatus} />
              </td>
              <td class="id">{customer.id}</td>
              <td>
                <When at={customer.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {selected ? <CustomerDetail key={selected} customerId={selected} onChanged={customers.reload} /> : <p class="hint">Select a customer to see its accounts.</p>}
    </>
  );
}

function CreateCustomer({ onCreated }: { onCreated: (customer: Customer) => Promise<void> }) {
  const { call, report, notify } = useConsole();
  return (
    <form
      class="inline-form create-customer"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const customerType = field(form, 'customerType');
        const name = field(form, 'name');
        const email = field(form, 'email');
        const body =
          customerType === 'BUSINESS'
            ? { customerType, businessInfo: { legalName: name }, ...(email ? { email } : {}) }
            : { customerType, fullName: name, ...(email ? { email } : {}) };
        try {
          const customer = await call<Customer>('POST', '/customers', body);
          notify(`Created ${customer.id}`);
          (event.target as HTMLFormElement).reset();
          await onCreated(customer);
        } catch (error) {
          report(error);
        }
      }}
    >
      <strong>New customer</strong>
      <select name="customerType" aria-label="Customer type">
        <option value="INDIVIDUAL">Individual</option>
        <option value="BUSINESS">Business</option>
      </select>
      <input name="name" placeholder="Full name (last 3 characters pick the KYC outcome)" aria-label="Name" required />
      <input name="email" type="email" placeholder="Email (optional)" aria-label="Email" />
      <button type="submit">Create customer</button>
    </form>
  );
}

function CustomerDetail({ customerId, onChanged }: { customerId: string; onChanged: () => Promise<void> }) {
  const { call, notify } = useConsole();
  const customer = useLoad(() => call<Customer>('GET', `/customers/${encodeURIComponent(customerId)}`), [customerId]);
  // A new customer's accounts are opened just after it (provisioning): looked for every second until they are there.
  const [provisioned, setProvisioned] = useState(false);
  const accounts = useLoad(
    async () => {
      const page = await call<Page<InternalAccount>>('GET', `/customers/internal-accounts${query({ customerId, limit: 100 })}`);
      setProvisioned(page.data.length > 0);
      return page;
    },
    [customerId],
    provisioned ? undefined : 1_000,
  );
  const [fundAmount, setFundAmount] = useState('100000000');
  const status = customer.value?.customerType === 'BUSINESS' ? customer.value?.kybStatus : customer.value?.kycStatus;
  return (
    <section class="detail customer-detail">
      <h2>{customer.value ? customerName(customer.value) : customerId}</h2>
      <LoadError error={customer.error} />
      <p>
        KYC: <Status value={status} />{' '}
        <ActionButton
          label="Run KYC verification"
          run={async () => {
            const verification = await call<{ verificationStatus: string }>('POST', '/verifications', { customerId });
            notify(`Verification ${verification.verificationStatus}`);
            await customer.reload();
            await onChanged();
          }}
        />
      </p>
      <h3>Internal accounts</h3>
      <LoadError error={accounts.error} />
      <label>
        Sandbox funding amount (minor units){' '}
        <input value={fundAmount} onInput={(event) => setFundAmount(event.currentTarget.value)} inputMode="numeric" aria-label="Funding amount" />
      </label>
      <table class="accounts">
        <thead>
          <tr>
            <th>Account</th>
            <th>Type</th>
            <th>Status</th>
            <th>Balance</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(accounts.value?.data ?? []).map((account) => (
            <tr key={account.id} data-id={account.id}>
              <td class="id">{account.id}</td>
              <td>{account.type}</td>
              <td>
                <Status value={account.status} />
              </td>
              <td class="balance">{money(account.balance)}</td>
              <td>
                <ActionButton
                  label={`Fund ${account.balance.currency.code}`}
                  run={async () => {
                    await call('POST', `/sandbox/internal-accounts/${encodeURIComponent(account.id)}/fund`, { amount: Number(fundAmount) });
                    await accounts.reload();
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
