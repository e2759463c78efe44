import { CreateLedger1732300300000 } from './1732300300000-CreateLedger';
import { CreateAccountCredits1732300400000 } from './1732300400000-CreateAccountCredits';
import { TransactionFidelity1764000000000 } from './1764000000000-TransactionFidelity';
import { CreateQuotes1764062000000 } from './1764062000000-CreateQuotes';
import { RecordCryptoNetwork1764072100000 } from './1764072100000-RecordCryptoNetwork';
import { CreateAgentActions1764090100000 } from './1764090100000-CreateAgentActions';
import { QuoteFeesAndPayerData1764100000000 } from './1764100000000-QuoteFeesAndPayerData';
import { RefuseStatement1764200000000 } from './1764200000000-RefuseStatement';
import { CreateStablecoins1765000000000 } from './1765000000000-CreateStablecoins';
import { AgentApprovalAtDecision1765200000000 } from './1765200000000-AgentApprovalAtDecision';
import { DailyVolumeLimits1765400000000 } from './1765400000000-DailyVolumeLimits';
import { TransactionRefunds1765300000000 } from './1765300000000-TransactionRefunds';
import { RequestFingerprints1765700000000 } from './1765700000000-RequestFingerprints';
import { QuoteRequestFingerprints1765760000000 } from './1765760000000-QuoteRequestFingerprints';
import { TransactionReturns1765800000000 } from './1765800000000-TransactionReturns';
import { SandboxStateReplace1766100000000 } from './1766100000000-SandboxStateReplace';

/** Every migration of the payments database, oldest first (the app and its specs run the same list). */
export const PAYMENTS_MIGRATIONS = [
  CreateLedger1732300300000,
  CreateAccountCredits1732300400000,
  TransactionFidelity1764000000000,
  CreateQuotes1764062000000,
  RecordCryptoNetwork1764072100000,
  CreateAgentActions1764090100000,
  QuoteFeesAndPayerData1764100000000,
  RefuseStatement1764200000000,
  CreateStablecoins1765000000000,
  AgentApprovalAtDecision1765200000000,
  TransactionRefunds1765300000000,
  DailyVolumeLimits1765400000000,
  RequestFingerprints1765700000000,
  QuoteRequestFingerprints1765760000000,
  TransactionReturns1765800000000,
  SandboxStateReplace1766100000000,
];
