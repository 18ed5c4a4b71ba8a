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
