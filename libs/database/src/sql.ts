/**
 * What every repository of the platform needs around raw SQL (F35): row mappers for what
 * node-postgres answers, `RETURNING` as TypeORM hands it back, and the SQLSTATE checks services
 * turn into answers (409 on a duplicate, retry on a transient failure).
 */

/** A row as node-postgres returns it (column names snake_case). */
export type Row = Record<string, unknown>;

/** A scalar column as text (node-postgres gives strings, numbers, booleans or Dates). */
export function text(value: unknown): string {
  if (value instanceof Date) {
    return value.toISOString();
  }
  return typeof value === 'object'
    ? JSON.stringify(value)
    : `${value as string | number | boolean}`;
}

export function iso(value: unknown): string | undefined {
  if (value === null || value === undefined) {
    return undefined;
  }
  return value instanceof Date ? value.toISOString() : new Date(text(value)).toISOString();
}

export function str(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : text(value);
}

export function date(value: unknown): Date | undefined {
  if (value === null || value === undefined) {
    return undefined;
  }
  return value instanceof Date ? value : new Date(text(value));
}

/** TypeORM answers an UPDATE or DELETE … RETURNING with [rows, affected]; an INSERT with rows. */
export async function returning(
  tx: { query: (sql: string, params?: unknown[]) => Promise<unknown> },
  sql: string,
  params: unknown[],
): Promise<Row[]> {
  const [rows] = (await tx.query(sql, params)) as [Row[], number];
  return rows;
}

/** A user's search text as an ILIKE pattern that matches it literally anywhere. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[%_\\]/g, '\\$&')}%`;
}

/** The SQLSTATE of a failed query, whether node-postgres threw it or TypeORM wrapped it. */
export function sqlState(error: unknown): string | undefined {
  const e = (error as { code?: unknown; driverError?: { code?: unknown } } | null) ?? {};
  const code = typeof e.code === 'string' ? e.code : e.driverError?.code;
  return typeof code === 'string' ? code : undefined;
}

/** PostgreSQL's unique_violation (a duplicate name → 409). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/**
 * SQLSTATE classes that say "try the whole transaction again": connection lost (08), serialization
 * failure or deadlock (40), insufficient resources (53), operator intervention (57).
 */
const RETRYABLE_CLASSES = new Set(['08', '40', '53', '57']);

export function isRetryableSqlError(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && RETRYABLE_CLASSES.has(code.slice(0, 2));
}
