/**
 * The payments database's `refuse_statement(code, detail)` (migration RefuseStatement): a statement
 * of several changes calls it where one of its guards failed, and the whole statement is undone.
 */

/** SQL that refuses the statement with `code` (a literal) and `detail` (SQL text, or NULL) when `when` holds. */
export function refuseWhen(when: string, code: string, detail = 'NULL'): string {
  return `WHEN ${when} THEN refuse_statement('${code}', ${detail})`;
}

/** The code and detail a refused statement failed with; undefined for any other error. */
export function refusedStatement(error: unknown): { code: string; detail: string } | undefined {
  const candidate = error as { code?: string; message?: string; detail?: string; driverError?: { code?: string; message?: string; detail?: string } };
  const raised = candidate?.driverError ?? candidate;
  if (raised?.code !== 'P0001' || typeof raised.message !== 'string') return undefined;
  return { code: raised.message, detail: raised.detail ?? '' };
}
