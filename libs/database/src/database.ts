import { DataSource, EntityManager } from 'typeorm';

import { APP_ROLE, SYSTEM_SETTING, TENANT_SETTING } from './tenant-rls';

/** A transaction's handle: repositories take it so a state change and its outbox row commit together. */
export type Tx = EntityManager;

/**
 * One service's connection to its own schema (D4). Every tenant-owned read or write goes through
 * `inTenant`, which scopes the transaction with `SET LOCAL` (a session-level SET would leak to the
 * next request on a pooled connection) and switches to a role that row-level security applies to.
 */
export class Database {
  private isMultiplexed?: Promise<boolean>;

  constructor(
    readonly dataSource: DataSource,
    readonly schema: string,
  ) {}

  inTenant<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query(`SELECT set_config('role', $1, true), set_config($2, $3, true)`, [
        APP_ROLE,
        TENANT_SETTING,
        tenantId,
      ]);
      return work(tx);
    });
  }

  /** Work that is not one tenant's (the outbox relay, retention, token lookup by client id). */
  asSystem<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query(`SELECT set_config($1, 'on', true)`, [SYSTEM_SETTING]);
      return work(tx);
    });
  }

  /**
   * One statement that commits on its own, durable when the promise resolves: on PostgreSQL it
   * runs bare (autocommit), one round trip instead of four (`BEGIN`, scope, statement, `COMMIT`).
   * The embedded PGlite (D2) multiplexes one session over its connections, and only a transaction
   * keeps a statement's parse, bind and execute together there, so it gets one. For tables without
   * row-level security only (the outbox): the bare statement sets no tenant and no system scope.
   */
  async commitStatement<T = unknown>(sql: string, parameters: unknown[]): Promise<T> {
    if (await this.isMultiplexedSession()) {
      // No scope to set (no row-level security on such tables): three round trips, not four.
      return this.dataSource.transaction((tx) => tx.query(sql, parameters));
    }
    return this.dataSource.query(sql, parameters);
  }

  /** True on the embedded PGlite (one session behind its socket server); asked once. */
  isMultiplexedSession(): Promise<boolean> {
    if (!this.isMultiplexed) {
      const probe = this.dataSource
        .query(`SELECT version() AS version`)
        .then((rows: Array<{ version: string }>) => isPGliteVersion(rows[0]?.version ?? ''));
      // A failed probe is asked again next time rather than remembered.
      probe.catch(() => {
        if (this.isMultiplexed === probe) {
          this.isMultiplexed = undefined;
        }
      });
      this.isMultiplexed = probe;
    }
    return this.isMultiplexed;
  }

  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /** Nest calls this on shutdown, after HTTP and consumers have stopped. */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
    }
  }
}

/** `SELECT version()` of the embedded PGlite names it (`PostgreSQL 18.6 (PGlite 0.5.14) on wasm32…`). */
export function isPGliteVersion(version: string): boolean {
  return /\(PGlite \d/.test(version);
}
