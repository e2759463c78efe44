import { useState } from 'preact/hooks';
import { SANDBOX_CARD_ISSUANCE_SUFFIX_TABLE, SANDBOX_DESCRIPTOR_SUFFIX_TABLE, SandboxSuffixRow } from '@paykit/contracts/cards/sandbox';
import { money, Page, query } from '../api';
import { ActionButton, field, LoadError, Status, useConsole, useLoad, When } from '../shared';
import { Amount, Customer, customerName, InternalAccount } from './customers';

interface Card {
  id: string;
  cardholderId: string;
  platformCardId?: string;
  state: string;
  stateReason?: string;
  last4?: string;
  currency?: string;
  fundingSources: string[];
  createdAt: string;
}

interface CardTransaction {
  id: string;
  operation: string;
  direction: string;
  status: string;
  merchant?: { descriptor?: string };
  authorizedAmount?: Amount;
  settledAmount?: Amount;
  refundedAmount?: Amount;
  declineReason?: string;
  createdAt: string;
}

/** Simulators that start a card transaction (SPEC.md "Card sandbox simulators"). */
const NEW_TRANSACTION_SIMULATORS = [
  'authorization',
  'credit_authorization',
  'financial_authorization',
  'financial_credit_authorization',
  'credit_authorization_advice',
  'balance_inquiry',
];
/** Simulators that act on a chosen card transaction, and whether they take an amount. */
const TRANSACTION_SIMULATORS: Array<{ name: string; label: string; amount: boolean }> = [
  { name: 'clearing', label: 'Clearing', amount: true },
  { name: 'return', label: 'Return', amount: true },
  { name: 'authorization_advice', label: 'Authorization advice', amount: true },
  { name: 'return_reversal', label: 'Return reversal', amount: false },
];
/** A suffix no table row names: the default outcome (instant activation, approval). */
const OTHER_SUFFIX = '900';

function SuffixPicker({ table, other, name, label }: { table: readonly SandboxSuffixRow[]; other: string; name: string; label: string }) {
  return (
    <select name={name} aria-label={label}>
      <option value={OTHER_SUFFIX}>{other}</option>
      {table.map((row) => (
        <option key={row.suffix} value={row.suffix} title={row.outcome}>
          {row.name} ({row.suffix})
        </option>
      ))}
    </select>
  );
}

/** Cards with their state; one opened runs every simulator on it and on its transactions. */
export function CardsPage() {
  const { call } = useConsole();
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const cards = useLoad(() => call<Page<Card>>('GET', '/cards?limit=100'), []);
  return (
    <>
      <IssueCard
        onIssued={async (card) => {
          await cards.reload();
          setSelected(card.id);
        }}
      />
      <button type="button" onClick={() => void cards.reload()}>
        Refresh
      </button>
      <LoadError error={cards.error} />
      <table class="cards">
        <thead>
          <tr>
            <th>Card</th>
            <th>Last 4</th>
            <th>State</th>
            <th>Platform card id</th>
            <th>Cardholder</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {(cards.value?.data ?? []).map((card) => (
            <tr
              key={card.id}
              data-id={card.id}
              data-platform-card-id={card.platformCardId}
              class={card.id === selected ? 'selected' : undefined}
              onClick={() => setSelected(card.id)}
            >
              <td class="id">{card.id}</td>
              <td>{card.last4}</td>
              <td class="card-state">
                <Status value={card.state} /> {card.stateReason}
              </td>
              <td>{card.platformCardId}</td>
              <td class="id">{card.cardholderId}</td>
              <td>
                <When at={card.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {selected ? <CardDetail key={selected} cardId={selected} onChanged={cards.reload} /> : <p class="hint">Select a card to run the simulators.</p>}
    </>
  );
}

function IssueCard({ onIssued }: { onIssued: (card: Card) => Promise<void> }) {
  const { call, report, notify } = useConsole();
  const [cardholderId, setCardholderId] = useState('');
  const customers = useLoad(() => call<Page<Customer>>('GET', '/customers?limit=100'), []);
  // Cards are funded in USDC (SPEC.md): the cardholder's USDC internal accounts.
  const sources = useLoad(
    async () =>
      cardholderId ? (await call<Page<InternalAccount>>('GET', `/customers/internal-accounts${query({ customerId: cardholderId, currency: 'USDC', limit: 100 })}`)).data : [],
    [cardholderId],
  );
  return (
    <form
      class="inline-form issue-card"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const suffix = field(form, 'issuanceSuffix');
        const body = {
          cardholderId,
          form: 'VIRTUAL',
          platformCardId: `console-${Date.now().toString(36)}-${suffix}`,
          fundingSources: [field(form, 'fundingSource')],
        };
        try {
          const card = await call<Card>('POST', '/cards', body);
          notify(`Issued ${card.id} (${card.state})`);
          await onIssued(card);
        } catch (error) {
          report(error);
        }
      }}
    >
      <strong>Issue a card</strong>
      <select name="cardholderId" aria-label="Cardholder" value={cardholderId} onChange={(event) => setCardholderId(event.currentTarget.value)} required>
        <option value="">Cardholder…</option>
        {(customers.value?.data ?? []).map((customer) => (
          <option key={customer.id} value={customer.id}>
            {customerName(customer)} ({customer.kycStatus ?? customer.kybStatus})
          </option>
        ))}
      </select>
      <select name="fundingSource" aria-label="Funding source" required>
        {(sources.value ?? []).map((account) => (
          <option key={account.id} value={account.id}>
            {account.type} {money(account.balance)} {account.id}
          </option>
        ))}
      </select>
      <SuffixPicker table={SANDBOX_CARD_ISSUANCE_SUFFIX_TABLE} other="Instant activation" name="issuanceSuffix" label="Issuance outcome" />
      <button type="submit">Issue card</button>
    </form>
  );
}

function CardDetail({ cardId, onChanged }: { cardId: string; onChanged: () => Promise<void> }) {
  const { call, notify, report } = useConsole();
  const card = useLoad(() => call<Card>('GET', `/cards/${encodeURIComponent(cardId)}`), [cardId]);
  const transactions = useLoad(() => call<Page<CardTransaction>>('GET', `/cards/${encodeURIComponent(cardId)}/transactions?limit=100`), [cardId]);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [amount, setAmount] = useState('1000000');
  const refresh = async () => {
    await Promise.all([card.reload(), transactions.reload(), onChanged()]);
  };
  const simulate = async (simulator: string, body: Record<string, unknown>) => {
    const result = await call<{ id?: string; status?: string; issuerTransactionToken?: string }>(
      'POST',
      `/sandbox/cards/${encodeURIComponent(cardId)}/simulate/${simulator}`,
      body,
    );
    notify(`${simulator}: ${result.id ?? result.issuerTransactionToken ?? ''} ${result.status ?? 'accepted'}`);
    await refresh();
  };
  return (
    <section class="detail card-detail">
      <h2>
        Card {card.value?.last4 ? `•••• ${card.value.last4}` : cardId} <Status value={card.value?.state} />
      </h2>
      <LoadError error={card.error} />
      <form
        class="inline-form simulate"
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const simulator = field(form, 'simulator');
          const merchant = { descriptor: `${field(form, 'descriptor').trim()} ${field(form, 'descriptorSuffix')}`, mcc: '5814', country: 'US' };
          try {
            await simulate(simulator, simulator === 'balance_inquiry' ? { merchant } : { amount: Number(amount), currency: { code: card.value?.currency ?? 'USDC' }, merchant });
          } catch (error) {
            report(error);
          }
        }}
      >
        <strong>Simulate</strong>
        <select name="simulator" aria-label="Simulator">
          {NEW_TRANSACTION_SIMULATORS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label>
          Amount (minor units of {card.value?.currency ?? 'the card currency'}){' '}
          <input value={amount} onInput={(event) => setAmount(event.currentTarget.value)} inputMode="numeric" aria-label="Amount" />
        </label>
        <input name="descriptor" defaultValue="CONSOLE SHOP" aria-label="Merchant descriptor" />
        <SuffixPicker table={SANDBOX_DESCRIPTOR_SUFFIX_TABLE} other="Approved" name="descriptorSuffix" label="Descriptor suffix" />
        <button type="submit">Run simulator</button>
      </form>
      <h3>Card transactions</h3>
      <LoadError error={transactions.error} />
      <div class="inline-form transaction-actions">
        <span>On the chosen transaction:</span>
        {TRANSACTION_SIMULATORS.map((simulator) => (
          <ActionButton
            key={simulator.name}
            label={simulator.label}
            disabled={!chosen}
            run={() => simulate(simulator.name, simulator.amount ? { cardTransactionId: chosen, amount: Number(amount) } : { cardTransactionId: chosen })}
          />
        ))}
        <button type="button" onClick={() => void refresh()}>
          Refresh
        </button>
      </div>
      <table class="card-transactions">
        <thead>
          <tr>
            <th />
            <th>Transaction</th>
            <th>Operation</th>
            <th>Status</th>
            <th>Authorized</th>
            <th>Settled</th>
            <th>Refunded</th>
            <th>Merchant</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {(transactions.value?.data ?? []).map((transaction) => (
            <tr key={transaction.id} data-id={transaction.id}>
              <td>
                <input type="radio" name="cardTransaction" aria-label={`Choose ${transaction.id}`} checked={chosen === transaction.id} onChange={() => setChosen(transaction.id)} />
              </td>
              <td class="id">{transaction.id}</td>
              <td>
                {transaction.operation} {transaction.direction}
              </td>
              <td class="transaction-status">
                <Status value={transaction.status} /> {transaction.declineReason}
              </td>
              <td>{money(transaction.authorizedAmount)}</td>
              <td>{money(transaction.settledAmount)}</td>
              <td>{money(transaction.refundedAmount)}</td>
              <td>{transaction.merchant?.descriptor}</td>
              <td>
                <When at={transaction.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
