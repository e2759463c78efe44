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

/**
 * Several changes written by one statement (one round trip, atomic without a transaction): each
 * part is a named CTE whose parameters are renumbered after those of the parts before it, and may
 * read their RETURNING rows by name. PostgreSQL runs every data-modifying part whether or not
 * anything reads it; a part that raises (see `refused` in the payments service) undoes them all.
 */
export class CompositeStatement {
  private readonly parts: string[] = [];
  private readonly params: unknown[] = [];

  add(name: string, part: Statement): this {
    this.parts.push(`${name} AS (${shiftParameters(part.sql, this.params.length)})`);
    this.params.push(...part.params);
    return this;
  }

  /** The whole statement, ending with `final` (a SELECT or a change that may read the parts). */
  end(final: Statement): Statement {
    const sql = shiftParameters(final.sql, this.params.length);
    return { sql: this.parts.length > 0 ? `WITH ${this.parts.join(', ')} ${sql}` : sql, params: [...this.params, ...final.params] };
  }
}
