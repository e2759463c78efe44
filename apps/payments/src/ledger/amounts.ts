/** An amount for the JSON API: integers in minor units; refuses values a JSON number cannot hold exactly. */
export function toAmount(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`Amount ${value} exceeds the exactly representable range`);
  }
  return Number(value);
}

