/**
 * Amounts on every wire, HTTP bodies and messages between services alike, are JSON numbers:
 * integers in the currency's minor units (the spec's JSON), never beyond ±(2^53 − 1), where a
 * JSON parser would start rounding. Inside a service an amount is a `bigint` and no arithmetic
 * runs on numbers. These two functions are the only crossings between the two.
 */
export const MAX_WIRE_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

export function amountFromWire(amount: number): bigint {
  return BigInt(amount);
}

/** Whether a JSON number carries `amount` exactly. */
export function fitsOnWire(amount: bigint): boolean {
  return amount <= MAX_WIRE_AMOUNT && amount >= -MAX_WIRE_AMOUNT;
}

/** Refuses what a JSON number cannot carry exactly (an internal failure: validated inputs keep sums far below it). */
export function amountToWire(amount: bigint): number {
  if (!fitsOnWire(amount)) throw new Error(`Amount ${amount} exceeds the exactly representable range`);
  return Number(amount);
}

/**
 * An amount the wire carries as a string of digits (the reference's stablecoin amounts, which may
 * pass 2^53 in an 18-decimal coin's smallest unit). The string is validated first (digits only).
 */
export function amountFromDigits(digits: string): bigint {
  if (!/^\d+$/.test(digits)) throw new Error(`Amount ${JSON.stringify(digits)} is not a string of digits`);
  return BigInt(digits);
}

/** A fee rate in basis points (an integer on the wire, as amounts are), for bigint arithmetic on amounts. */
export function basisPointsFromWire(basisPoints: number): bigint {
  return BigInt(basisPoints);
}

/** 10^decimals: minor units per major unit of a currency with `decimals` places (the factor between two currencies' minor units). */
export function decimalScale(decimals: number): bigint {
  if (!Number.isSafeInteger(decimals) || decimals < 0) throw new Error(`Decimal places must be a non-negative integer, got ${decimals}`);
  return 10n ** BigInt(decimals);
}
