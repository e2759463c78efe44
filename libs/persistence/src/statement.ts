/** A statement text and its parameters ($1, $2, ...), for callers that write several changes in one statement. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The statement's text with its parameters renumbered from `$offset + 1`, to join another
 * statement's as a CTE. Statement texts here never quote a `$` (no dollar-quoted or string
 * literal holds one), so every `$n` is a parameter.
 */
export function shiftParameters(sql: string, offset: number): string {
  return offset === 0 ? sql : sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}
