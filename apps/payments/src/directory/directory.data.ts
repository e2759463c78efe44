/** A UMA provider as the directory lists it (currencies by code). */
export interface UmaProviderEntry {
  name: string;
  domain: string;
  supportedRegions: string[];
  supportedCurrencies: string[];
  logoUrl?: string;
  lei?: string;
  allowListStatus: boolean;
}

export interface VaspEntry {
  vaspName: string;
  url?: string;
}

/** A network's fee for a crypto withdrawal, in the smallest unit of `asset`. */
export interface NetworkFee {
  currency: string;
  cryptoNetwork: string;
  networkFee: number;
  networkFeeAsset: string;
  /** The service's fee on a withdrawal, in basis points of the amount. */
  applicationFeeBps: number;
}

export interface Directory {
  umaProviders: UmaProviderEntry[];
  vasps: VaspEntry[];
  networkFees: NetworkFee[];
}

/**
 * The sandbox directory: fictitious providers and exchanges, fixed so answers are deterministic.
 * An operator replaces it with DIRECTORY_FILE (the same JSON shape).
 */
export const SANDBOX_DIRECTORY: Directory = {
  umaProviders: [
    { name: 'Sandbox UMA', domain: 'sandbox.uma.money', supportedRegions: ['US', 'MX', 'DE', 'FR', 'ES'], supportedCurrencies: ['USD', 'EUR', 'MXN'], allowListStatus: true },
    { name: 'Aurora Wallet', domain: 'aurora-wallet.example', supportedRegions: ['US', 'CA'], supportedCurrencies: ['USD', 'CAD'], allowListStatus: true },
    { name: 'Bahia Pagos', domain: 'bahia-pagos.example', supportedRegions: ['BR', 'MX'], supportedCurrencies: ['BRL', 'MXN'], allowListStatus: true },
    { name: 'Lagos Pay', domain: 'lagos-pay.example', supportedRegions: ['NG', 'KE'], supportedCurrencies: ['NGN', 'KES'], allowListStatus: false },
    { name: 'Manila Remit', domain: 'manila-remit.example', supportedRegions: ['PH'], supportedCurrencies: ['PHP', 'USD'], allowListStatus: true },
  ],
  vasps: [
    { vaspName: 'Atlas Exchange', url: 'https://atlas-exchange.example' },
    { vaspName: 'Borealis Custody', url: 'https://borealis-custody.example' },
    { vaspName: 'Cobalt Markets', url: 'https://cobalt-markets.example' },
    { vaspName: 'Delta Digital Assets' },
  ],
  networkFees: [
    { currency: 'USDC', cryptoNetwork: 'SOLANA', networkFee: 1_000, networkFeeAsset: 'USDC', applicationFeeBps: 10 },
    { currency: 'USDC', cryptoNetwork: 'BASE', networkFee: 5_000, networkFeeAsset: 'USDC', applicationFeeBps: 10 },
    { currency: 'USDC', cryptoNetwork: 'ETHEREUM', networkFee: 1_500_000, networkFeeAsset: 'USDC', applicationFeeBps: 10 },
    { currency: 'USDT', cryptoNetwork: 'TRON', networkFee: 1_000_000, networkFeeAsset: 'USDT', applicationFeeBps: 10 },
    { currency: 'BTC', cryptoNetwork: 'BITCOIN', networkFee: 2_000, networkFeeAsset: 'BTC', applicationFeeBps: 20 },
    { currency: 'BTC', cryptoNetwork: 'LIGHTNING', networkFee: 10, networkFeeAsset: 'BTC', applicationFeeBps: 20 },
  ],
};
