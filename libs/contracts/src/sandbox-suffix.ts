/**
 * The sandbox's magic values (the spec's suffix tables): an outcome chosen by the last three
 * characters of a value the developer controls. Each owning service keeps its tables as data in
 * `<feature>.sandbox.ts`; this is the one way they are read.
 */
export function sandboxSuffix(value: string): string {
  return value.slice(-3);
}

/** The row of `table` for the suffix of `value`, or `otherwise` when no row names it. */
export function sandboxOutcome<Outcome>(table: Readonly<Record<string, Outcome>>, value: string, otherwise: Outcome): Outcome {
  return table[sandboxSuffix(value)] ?? otherwise;
}
