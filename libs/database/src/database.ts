import { DataSource, EntityManager } from 'typeorm';

import { markDedicatedSessions, queryNamed } from './named-statements';
import { APP_ROLE, SYSTEM_SETTING, TENANT_SETTING } from './tenant-rls';

/** A transaction's handle: repositories take it so a state change and its outbox row commit together. */
export type Tx = EntityManager;

/** One service's connection to its own schema (D4). */
export class Database {
  private isMultiplexed?: Promise<boolean>;

  constructor(
    readonly dataSource: DataSource,
    readonly schema: string,
  ) {}

  inTenant<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    this.learnSessions();
    return this.dataSource.transaction(async (tx) => {
      await queryNamed(tx, `SELECT set_config('role', $1, true), set_config($2, $3, true)`, [
        APP_ROLE,
        TENANT_SETTING,
        tenantId,
      ]);
      return work(tx);
    });
  }

  /** Work that is not one tenant's (the outbox relay, retention, token lookup by client id). */
  asSystem<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    this.learnSessions();
    return this.dataSource.transaction(async (tx) => {
      await queryNamed(tx, `SELECT set_config($1, 'on', true)`, [SYSTEM_SETTING]);
      return work(tx);
    });
  }

  /** F53: once, in the background; statements go as plain text until the answer is in. */
  private learnSessions(): void {
    if (!this.isMultiplexed) {
      this.isMultiplexedSession().catch(() => undefined);
    }
  }

  /**
   * One statement that commits on its own (autocommit), durable when the promise resolves. Bare on
   * the embedded PGlite too: its shared session keeps a statement's Parse … Sync together (F64).
   */
  commitStatement<T = unknown>(sql: string, parameters: unknown[]): Promise<T> {
    return this.dataSource.query(sql, parameters);
  }

  isMultiplexedSession(): Promise<boolean> {
    if (!this.isMultiplexed) {
      const probe = this.dataSource
        .query(`SELECT version() AS version`)
        .then((rows: Array<{ version: string }>) => {
          const isMultiplexed = isPGliteVersion(rows[0]?.version ?? '');
          if (!isMultiplexed) {
            markDedicatedSessions(this.dataSource);
          }
          return isMultiplexed;
        });
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

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
    }
  }
}

export function isPGliteVersion(version: string): boolean {
  return /\(PGlite \d/.test(version);
}
