import { Module } from '@nestjs/common';
import { CustomersClient } from './counterparties/customers.client';
import { CurrencyCatalog } from './currencies/currency-catalog';
import { InternalAccountsRepository } from './internal-accounts/internal-accounts.repository';
import { HoldsRepository } from './ledger/holds.repository';
import { LedgerRepository } from './ledger/ledger.repository';

/** Data access every payments feature shares: currencies, ledger accounts and holds, internal accounts, the customers client. */
@Module({
  providers: [CurrencyCatalog, LedgerRepository, HoldsRepository, InternalAccountsRepository, CustomersClient],
  exports: [CurrencyCatalog, LedgerRepository, HoldsRepository, InternalAccountsRepository, CustomersClient],
})
export class PaymentsDataModule {}
