import { ExternalAccount, PAYMENT_RAILS, PaymentRail } from '@paykit/contracts';

/** The rail a payout to an account type takes when neither the request nor the account names one. */
const DEFAULT_RAIL: Readonly<Record<string, PaymentRail>> = {
  USD_ACCOUNT: 'ACH',
  MXN_ACCOUNT: 'SPEI',
  BRL_ACCOUNT: 'PIX',
  EUR_ACCOUNT: 'SEPA',
  GBP_ACCOUNT: 'FASTER_PAYMENTS',
  INR_ACCOUNT: 'UPI',
  SWIFT_ACCOUNT: 'SWIFT',
  KES_ACCOUNT: 'MOBILE_MONEY',
  TZS_ACCOUNT: 'MOBILE_MONEY',
  ZMW_ACCOUNT: 'MOBILE_MONEY',
  RWF_ACCOUNT: 'MOBILE_MONEY',
  MWK_ACCOUNT: 'MOBILE_MONEY',
  UGX_ACCOUNT: 'MOBILE_MONEY',
  XOF_ACCOUNT: 'MOBILE_MONEY',
  XAF_ACCOUNT: 'MOBILE_MONEY',
  BWP_ACCOUNT: 'MOBILE_MONEY',
};

/** Account types that settle off the bank rails (a wallet address): no rail applies. */
const RAILLESS = new Set(['LN_WALLET', 'SPARK_WALLET', 'SOLANA_WALLET', 'TRON_WALLET', 'POLYGON_WALLET', 'BASE_WALLET', 'ETHEREUM_WALLET', 'PLASMA_WALLET', 'LIGHTNING']);

/** The rails the external account says it takes (`accountInfo.paymentRails`), when it says. */
export function railsOf(account: ExternalAccount): PaymentRail[] | undefined {
  const rails = account.accountInfo.paymentRails;
  if (!Array.isArray(rails)) return undefined;
  return rails.filter((rail): rail is PaymentRail => typeof rail === 'string' && (PAYMENT_RAILS as readonly string[]).includes(rail));
}

/** The rail a payout to `account` uses by default: the account's first rail, else the usual one for its type. */
export function defaultRail(account: ExternalAccount): PaymentRail | undefined {
  const listed = railsOf(account);
  if (listed && listed.length > 0) return listed[0];
  const type = account.accountInfo.accountType;
  if (RAILLESS.has(type)) return undefined;
  if (type === 'COP_ACCOUNT' || type === 'SLV_ACCOUNT') return account.accountInfo.phoneNumber ? 'MOBILE_MONEY' : 'BANK_TRANSFER';
  return DEFAULT_RAIL[type] ?? 'BANK_TRANSFER';
}
