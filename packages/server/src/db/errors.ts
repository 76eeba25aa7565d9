import { UniqueViolationError } from 'objection';

/**
 * A unique-constraint violation on either database. Objection's own wrapping does not know the
 * better-sqlite3 client, so the drivers' codes are checked as well.
 */
export function isUniqueViolation(err: unknown): boolean {
  if (err instanceof UniqueViolationError) return true;
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'ER_DUP_ENTRY';
}
