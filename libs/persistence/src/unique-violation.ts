/** PostgreSQL's unique_violation (23505), raised the same way by `pg` and PGlite. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidate = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = candidate?.code ?? candidate?.driverError?.code;
  const name = candidate?.constraint ?? candidate?.driverError?.constraint;
  return code === '23505' && (constraint === undefined || name === constraint);
}
