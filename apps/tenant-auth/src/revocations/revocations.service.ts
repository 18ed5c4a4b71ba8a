import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { REVOCATION_STORE, RevocationStore, RevokedSubjectKind, revocationKey } from '@agp/auth';
import { Database, Tx } from '@agp/database';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { RevocationsRepository } from './revocations.repository';

/** How often `tenantAuthJobs` reconciles, on one replica per interval (F30). */
export const RECONCILE_EVERY_MS = 60_000;

/** identity.md I2 (F30). */
@Injectable()
export class RevocationsService implements OnApplicationBootstrap {
  /** Keys in the store but not in the table at this replica's last pass, and when that was. */
  private unbacked = { keys: new Set<string>(), at: 0 };

  constructor(
    @Inject(REVOCATION_STORE) private readonly store: RevocationStore,
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly repository: RevocationsRepository,
  ) {}

  /** Inside the transaction that suspends or deletes. `permanent` is for deletions: kept until every token expired. */
  async revoke(
    tx: Tx,
    kind: RevokedSubjectKind,
    id: string,
    reason: string,
    permanent = false,
  ): Promise<void> {
    const key = revocationKey(kind, id);
    const expiresAt = permanent
      ? new Date(Date.now() + (this.env.TOKEN_TTL_SEC + 60) * 1000)
      : null;
    await this.repository.put(tx, key, reason, expiresAt);
    await this.store.revoke(key, reason);
  }

  /** Inside the transaction that reactivates; returns what to run after the commit. */
  async restore(tx: Tx, kind: RevokedSubjectKind, id: string): Promise<() => Promise<void>> {
    const key = revocationKey(kind, id);
    await this.repository.remove(tx, key);
    return () => this.store.restore(key);
  }

  async reconcile(now = Date.now()): Promise<void> {
    const expected = await this.database.asSystem((tx) => this.repository.current(tx));
    for (const [key, reason] of expected) {
      if (this.store.entries().get(key) !== reason) {
        await this.store.revoke(key, reason);
      }
    }
    // Other replicas may have run the passes since this one's last (F30).
    const previous =
      now - this.unbacked.at <= 2 * RECONCILE_EVERY_MS ? this.unbacked.keys : new Set<string>();
    const unbacked = new Set([...this.store.entries().keys()].filter((key) => !expected.has(key)));
    for (const key of unbacked) {
      if (previous.has(key)) {
        await this.store.restore(key);
        unbacked.delete(key);
      }
    }
    this.unbacked = { keys: unbacked, at: now };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reconcile();
  }
}
