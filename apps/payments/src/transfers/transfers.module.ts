import { Module } from '@nestjs/common';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { TransactionLimitsRepository } from './transaction-limits.repository';
import { TransactionsRepository } from './transactions.repository';
import { TransfersHandlers } from './transfers.handlers';
import { TransfersService } from './transfers.service';
import { AdvanceTransfer } from './use-cases/advance-transfer';
import { CheckTransfer } from './use-cases/check-transfer';
import { DailyVolume } from './use-cases/daily-volume';
import { MoveTransfer } from './use-cases/move-transfer';
import { StartApprovedTransfer } from './use-cases/start-approved-transfer';
import { TransactionReader } from './use-cases/transaction-reader';
import { TransferFunds } from './use-cases/transfer-funds';
import { TransferIn } from './use-cases/transfer-in';
import { TransferOut } from './use-cases/transfer-out';
import { TransferSteps } from './use-cases/transfer-steps';
import { VelocityLimits } from './use-cases/velocity-limits';

/** Use cases, one command or query each (./use-cases); TransfersService is the facade other features call. */
const USE_CASES = [
  TransferOut,
  TransferIn,
  CheckTransfer,
  MoveTransfer,
  AdvanceTransfer,
  StartApprovedTransfer,
  TransactionReader,
  TransferFunds,
  TransferSteps,
  DailyVolume,
  VelocityLimits,
];

@Module({
  imports: [CurrenciesModule, CounterpartiesModule, InternalAccountsModule, LedgerModule],
  controllers: [TransfersHandlers],
  providers: [TransfersService, TransactionsRepository, TransactionLimitsRepository, ...USE_CASES],
  exports: [TransfersService, TransactionsRepository, TransactionReader, DailyVolume],
})
export class TransfersModule {}
