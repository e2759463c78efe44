import { money, Page } from '../api';
import { LoadError, Status, useConsole, useLoad, When } from '../shared';
import type { Amount } from './customers';

interface Transaction {
  id: string;
  type: string;
  status: string;
  customerId?: string;
  operation?: string;
  direction?: string;
  authorizedAmount?: Amount;
  sentAmount?: Amount;
  receivedAmount?: Amount;
  amount?: Amount;
  createdAt: string;
}

/** Every transaction of the platform (transfers, quotes' payments and card transactions), newest first. */
export function TransactionsPage() {
  const { call } = useConsole();
  const transactions = useLoad(() => call<Page<Transaction>>('GET', '/transactions?limit=100'), []);
  return (
    <>
      <button type="button" onClick={() => void transactions.reload()}>
        Refresh
      </button>
      <LoadError error={transactions.error} />
      <table class="transactions">
        <thead>
          <tr>
            <th>Transaction</th>
            <th>Type</th>
            <th>Status</th>
            <th>Amount</th>
            <th>Customer</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {(transactions.value?.data ?? []).map((transaction) => (
            <tr key={transaction.id} data-id={transaction.id}>
              <td class="id">{transaction.id}</td>
              <td>{[transaction.type, transaction.operation, transaction.direction].filter(Boolean).join(' · ')}</td>
              <td>
                <Status value={transaction.status} />
              </td>
              <td>{money(transaction.authorizedAmount ?? transaction.sentAmount ?? transaction.receivedAmount ?? transaction.amount)}</td>
              <td class="id">{transaction.customerId}</td>
              <td>
                <When at={transaction.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
