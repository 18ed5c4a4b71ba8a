import { Principal } from './principal';

/** Kinds of subject a revocation names: a tenant, or one caller of a kind (D9 `kind`). */
export type RevokedSubjectKind = 'TENANT' | 'USER' | 'AGENT' | 'SERVICE';

/** The key of a revoked subject: `TENANT.<id>`, `AGENT.<id>` … (a valid NATS KV key). */
export function revocationKey(kind: RevokedSubjectKind, id: string): string {
  return `${kind}.${id}`;
}

/**
 * What a signature cannot show: a suspended tenant, a suspended or deleted user, agent or service
 * account (identity.md I2). tenant-auth writes it; every process of every service reads it.
 */
export interface RevocationStore {
  /** Why the principal's token no longer works, or undefined. Synchronous: it is on the hot path. */
  reasonFor(principal: Principal): string | undefined;
  /** Marks a subject revoked (idempotent). Resolves once every process can see it. */
  revoke(key: string, reason: string): Promise<void>;
  /** Lifts a revocation (idempotent). */
  restore(key: string): Promise<void>;
  /** Every revocation currently known, for reconciliation. */
  entries(): ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/**
 * Reads revocations from a local map (`entries()`): the whole truth in one process, a replica of
 * the bucket otherwise.
 */
export abstract class MapRevocationStore implements RevocationStore {
  reasonFor(principal: Principal): string | undefined {
    const revoked = this.entries();
    return (
      revoked.get(revocationKey('TENANT', principal.tenantId)) ??
      revoked.get(revocationKey(principal.kind, principal.subject))
    );
  }

  abstract entries(): ReadonlyMap<string, string>;
  abstract revoke(key: string, reason: string): Promise<void>;
  abstract restore(key: string): Promise<void>;
  abstract close(): Promise<void>;
}

/**
 * The embedded default (D2): every service of the process shares this one instance through the
 * one AuthModule, so a write is seen by every reader at once.
 */
export class InProcessRevocationStore extends MapRevocationStore {
  private readonly revoked = new Map<string, string>();

  entries(): ReadonlyMap<string, string> {
    return this.revoked;
  }

  async revoke(key: string, reason: string): Promise<void> {
    this.revoked.set(key, reason);
  }

  async restore(key: string): Promise<void> {
    this.revoked.delete(key);
  }

  async close(): Promise<void> {
    this.revoked.clear();
  }
}
