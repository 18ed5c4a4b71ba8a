import { randomUUID } from 'node:crypto';

import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { JSONWebKeySet, JWK, KeyLike, exportJWK, generateKeyPair, importJWK } from 'jose';
import { Logger } from 'pino';
import { SecretSealer } from '@agp/sealing';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { SigningKey } from './signing-key.types';
import { SigningKeysRepository } from './signing-keys.repository';

export const SECRET_SEALER = Symbol.for('agp:tenant-auth:secret-sealer');

export interface ActiveKey {
  kid: string;
  privateKey: KeyLike;
}

/** D9: how long after retirement a key stays in the JWKS: the longest token it signed, plus the skew. */
const SKEW_SEC = 30;
/** A replica picks up another replica's rotation within this time (it signs with the retired key meanwhile, which still verifies). */
const ACTIVE_KEY_CACHE_MS = 30_000;

// ES256 signing keys (D9): sealed at rest with KEY_ENCRYPTION_SECRET, rotated by a command
// (`rotate-keys`) and by age, retired public keys kept in the JWKS until every token they signed
// has expired.
@Injectable()
export class SigningKeysService implements OnApplicationBootstrap {
  private cached?: { key: ActiveKey; until: number };

  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    @Inject(SECRET_SEALER) private readonly sealer: SecretSealer,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly keys: SigningKeysRepository,
  ) {}

  /** At start; then every hour on one replica (`tenantAuthJobs`, F30). */
  async onApplicationBootstrap(): Promise<void> {
    await this.rotateIfOld();
  }

  /** The key new tokens are signed with. */
  async activeKey(): Promise<ActiveKey> {
    if (this.cached && this.cached.until > Date.now()) {
      return this.cached.key;
    }
    let row = await this.database.asSystem((tx) => this.keys.active(tx));
    if (!row) {
      await this.rotate('no active key', (active) => !active);
      row = await this.database.asSystem((tx) => this.keys.active(tx));
    }
    if (!row) {
      throw new Error('no signing key');
    }
    const privateKey = (await importJWK(
      JSON.parse(this.sealer.decrypt(row.privateKeySealed)) as JWK,
      'ES256',
    )) as KeyLike;
    const key = { kid: row.kid, privateKey };
    this.cached = { key, until: Date.now() + ACTIVE_KEY_CACHE_MS };
    return key;
  }

  async jwks(): Promise<JSONWebKeySet> {
    const rows = await this.database.asSystem((tx) => this.keys.published(tx));
    return {
      keys: rows.map((row) => ({ ...row.publicJwk, kid: row.kid, alg: 'ES256', use: 'sig' })),
    };
  }

  /** Replaces the active key; the old one stays published for TOKEN_TTL_SEC + 30 s. Returns the new kid. */
  async rotate(
    reason: string,
    onlyIf?: (active: SigningKey | null) => boolean,
  ): Promise<string | undefined> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = randomUUID();
    const publicJwk = await exportJWK(publicKey);
    const sealed = this.sealer.encrypt(JSON.stringify(await exportJWK(privateKey)));
    const rotated = await this.database.asSystem(async (tx) => {
      await this.keys.lock(tx);
      // Replicas serialise here; the condition is re-checked under the lock so only one rotates.
      if (onlyIf && !onlyIf(await this.keys.active(tx))) {
        return false;
      }
      await this.keys.retireActive(
        tx,
        new Date(Date.now() + (this.env.TOKEN_TTL_SEC + SKEW_SEC) * 1000),
      );
      await this.keys.insert(tx, {
        kid,
        privateKeySealed: sealed,
        publicJwk,
      });
      await this.keys.pruneExpired(tx);
      return true;
    });
    if (!rotated) {
      return undefined;
    }
    this.cached = undefined;
    this.logger.info({ kid, reason }, 'signing key rotated');
    return kid;
  }

  /** Rotation by age (SIGNING_KEY_MAX_AGE_DAYS), and the first key on first start. */
  async rotateIfOld(): Promise<string | undefined> {
    const maxAgeMs = this.env.SIGNING_KEY_MAX_AGE_DAYS * 86_400_000;
    const isDue = (active: SigningKey | null): boolean =>
      !active || Date.now() - active.createdAt.getTime() >= maxAgeMs;
    const active = await this.database.asSystem((tx) => this.keys.active(tx));
    return isDue(active) ? this.rotate(active ? 'age' : 'first start', isDue) : undefined;
  }
}
