import { createHash } from 'node:crypto';

import type { DataSource, EntityManager } from 'typeorm';

/**
 * F53: data sources whose every pooled connection is a PostgreSQL session of its own. Only those
 * may hold named prepared statements: PGlite multiplexes one session for every connection (D2),
 * where a second connection preparing the same name would fail.
 */
const dedicatedSessions = new WeakSet<DataSource>();

/** Statement names by text: only fixed texts come here, so the map is as small as the code. */
const namesByText = new Map<string, string>();

export function markDedicatedSessions(dataSource: DataSource): void {
  dedicatedSessions.add(dataSource);
}

/**
 * Texts a rolling migration changed the result type of (`ALTER COLUMN … TYPE`): PostgreSQL refuses
 * their prepared statements from then on, so this process sends them as plain text.
 */
const unnamedTexts = new Set<string>();

/**
 * F53: one fixed statement of a hot path, sent as a named prepared statement where the session
 * allows it, so PostgreSQL parses it once per connection and, once its plan is generic, plans it
 * no more; as plain text otherwise (PGlite, or before the session was probed). Never for `SELECT *`
 * (a column added under a prepared statement fails it) nor for text built from values.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as TypeORM's own `query`
export async function queryNamed<T = any>(
  tx: EntityManager,
  text: string,
  parameters: unknown[],
): Promise<T> {
  if (!dedicatedSessions.has(tx.connection) || unnamedTexts.has(text)) {
    return tx.query<T>(text, parameters);
  }
  let name = namesByText.get(text);
  if (!name) {
    name = `agp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    namesByText.set(text, name);
  }
  try {
    // TypeORM hands the query to `pg` unchanged, and `pg` takes a { name, text } config there.
    return await tx.query<T>({ name, text } as unknown as string, parameters);
  } catch (error) {
    if (!isStalePlan(error)) {
      throw error;
    }
    unnamedTexts.add(text);
    if (tx.queryRunner?.isTransactionActive) {
      // The error aborted the transaction: this one fails, the caller's next one goes as text.
      throw error;
    }
    return tx.query<T>(text, parameters);
  }
}

/** SQLSTATE 0A000 "cached plan must not change result type": a column's type changed under it. */
function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '0A000' &&
    typeof message === 'string' &&
    message.includes('cached plan must not change result type')
  );
}
