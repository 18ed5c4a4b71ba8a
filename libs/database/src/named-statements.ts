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
 * F53: one fixed statement of a hot path, sent as a named prepared statement where the session
 * allows it, so PostgreSQL parses it once per connection and, once its plan is generic, plans it
 * no more; as plain text otherwise (PGlite, or before the session was probed). Never for `SELECT *`
 * (a column added under a prepared statement fails it) nor for text built from values.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as TypeORM's own `query`
export function queryNamed<T = any>(
  tx: EntityManager,
  text: string,
  parameters: unknown[],
): Promise<T> {
  if (!dedicatedSessions.has(tx.connection)) {
    return tx.query<T>(text, parameters);
  }
  let name = namesByText.get(text);
  if (!name) {
    name = `agp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    namesByText.set(text, name);
  }
  // TypeORM hands the query to `pg` unchanged, and `pg` takes a { name, text } config there.
  return tx.query<T>({ name, text } as unknown as string, parameters);
}
