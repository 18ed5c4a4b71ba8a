/** What every repository of the platform needs around raw SQL (F35). */

export type Row = Record<string, unknown>;

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

export async function returning(
  tx: { query: (sql: string, params?: unknown[]) => Promise<unknown> },
  sql: string,
  params: unknown[],
): Promise<Row[]> {
  const [rows] = (await tx.query(sql, params)) as [Row[], number];
  return rows;
}

export function containsPattern(search: string): string {
  return `%${search.replace(/[%_\\]/g, '\\$&')}%`;
}

export function sqlState(error: unknown): string | undefined {
  const e = (error as { code?: unknown; driverError?: { code?: unknown } } | null) ?? {};
  const code = typeof e.code === 'string' ? e.code : e.driverError?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

const RETRYABLE_CLASSES = new Set(['08', '40', '53', '57']);

export function isRetryableSqlError(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && RETRYABLE_CLASSES.has(code.slice(0, 2));
}

export interface SaveRowOptions {
  key: readonly string[];
  /** Raise `revision` with every real change (issue 30's owner revisions). */
  isVersioned?: boolean;
}

export async function saveRow(
  tx: { query: (sql: string, params?: unknown[]) => Promise<unknown> },
  table: string,
  values: Readonly<Record<string, unknown>>,
  options: SaveRowOptions,
): Promise<Row> {
  const columns = Object.keys(values);
  const changing = columns.filter((column) => !options.key.includes(column));
  const sets = [
    ...changing.map((column) => `${column} = EXCLUDED.${column}`),
    'updated_at = now()',
    ...(options.isVersioned ? [`revision = ${table}.revision + 1`] : []),
  ];
  const differs = `(${changing.map((c) => `${table}.${c}`).join(', ')}) IS DISTINCT FROM (${changing.map((c) => `EXCLUDED.${c}`).join(', ')})`;
  const rows = (await tx.query(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_c, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT (${options.key.join(', ')}) DO UPDATE SET ${sets.join(', ')} WHERE ${differs}
     RETURNING *`,
    columns.map((column) => values[column]),
  )) as Row[];
  if (rows[0]) {
    return rows[0];
  }
  const [unchanged] = (await tx.query(
    `SELECT * FROM ${table} WHERE ${options.key.map((c, i) => `${c} = $${i + 1}`).join(' AND ')}`,
    options.key.map((column) => values[column]),
  )) as Row[];
  return unchanged;
}

export type Unsaved<T> = Omit<T, 'createdAt' | 'updatedAt' | 'revision'>;

/** A page and the filter's total apart: a total read from the page would be 0 past the last page. */
export async function selectPage(
  tx: { query: (sql: string, params?: unknown[]) => Promise<unknown> },
  sql: { from: string; where: string; orderBy: string },
  params: unknown[],
  page: { limit: number; offset: number },
): Promise<[Row[], number]> {
  const n = params.length;
  const rows = (await tx.query(
    `SELECT * FROM ${sql.from} WHERE ${sql.where} ORDER BY ${sql.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, page.limit, page.offset],
  )) as Row[];
  const [count] = (await tx.query(
    `SELECT count(*)::int AS n FROM ${sql.from} WHERE ${sql.where}`,
    params,
  )) as Row[];
  return [rows, Number(count?.n ?? 0)];
}
