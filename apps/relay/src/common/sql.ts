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

/** Whether a database error is a unique-constraint violation (duplicate name → 409). */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string }; code?: string } | null) ?? {};
  return driverError.code === '23505' || driverError.driverError?.code === '23505';
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
