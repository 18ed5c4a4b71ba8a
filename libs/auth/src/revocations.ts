import { Principal } from './principal';

/** Kinds of subject a revocation names: a tenant, or one caller of a kind (D9 `kind`). */
export type RevokedSubjectKind = 'TENANT' | 'USER' | 'AGENT' | 'SERVICE';

export function revocationKey(kind: RevokedSubjectKind, id: string): string {
  return `${kind}.${id}`;
}

/** What a signature cannot show (I2). */
export interface RevocationStore {
  /** Why the principal's token no longer works, or undefined. Synchronous: it is on the hot path. */
  reasonFor(principal: Principal): string | undefined;
  /** Marks a subject revoked (idempotent). Resolves once every process can see it. */
  revoke(key: string, reason: string): Promise<void>;
  /** Lifts a revocation (idempotent). */
  restore(key: string): Promise<void>;
  entries(): ReadonlyMap<string, string>;
  close(): Promise<void>;
}

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

/** The embedded default (D2). */
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
