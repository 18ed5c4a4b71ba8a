import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { SecretSealer } from '@agp/sealing';
import {
  CompactSign,
  JWK,
  JSONWebKeySet,
  KeyLike,
  calculateJwkThumbprint,
  compactVerify,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
} from 'jose';
import { Logger } from 'pino';

import { AUDIT_ENV } from '../common/audit-env.token';
import { AuditEnv } from '../config/audit.env';
import { AUDIT_DATABASE } from '../database/tokens';
import { SigningKeysRepository } from './signing-keys.repository';

export const CHECKPOINT_JWS_TYPE = 'agp-audit-checkpoint+jws';

/** The salt the stored key was first sealed with (F37 keeps it: a new one would lose the key). */
const SIGNING_KEY_SALT = 'agp-audit-signing-key-v1';

interface ActiveKey {
  kid: string;
  privateKey: KeyLike;
}

/** The checkpoint signing key (ES256, A4). */
@Injectable()
export class SigningKeysService {
  private active?: Promise<ActiveKey>;
  private readonly verifyKeys = new Map<string, Promise<KeyLike | Uint8Array>>();

  constructor(
    @Inject(SigningKeysRepository) private readonly repository: SigningKeysRepository,
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(AUDIT_ENV) private readonly env: AuditEnv,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async prepare(): Promise<void> {
    await this.activeKey();
  }

  async sign(payload: Record<string, unknown>): Promise<{ kid: string; jws: string }> {
    const key = await this.activeKey();
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: CHECKPOINT_JWS_TYPE })
      .sign(key.privateKey);
    return { kid: key.kid, jws };
  }

  /** The payload of a checkpoint JWS whose signature verifies with a published key, else undefined. */
  async verified(jws: string): Promise<Record<string, unknown> | undefined> {
    try {
      const result = await compactVerify(
        jws,
        async (header) => this.verifyKey(String(header.kid)),
        {
          algorithms: ['ES256'],
        },
      );
      return JSON.parse(new TextDecoder().decode(result.payload)) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }

  async jwks(): Promise<JSONWebKeySet> {
    const keys = await this.database.asSystem((tx) => this.repository.publicKeys(tx));
    return {
      keys: keys.map((key) => ({ ...key.publicJwk, kid: key.kid, alg: 'ES256', use: 'sig' })),
    };
  }

  private verifyKey(kid: string): Promise<KeyLike | Uint8Array> {
    let key = this.verifyKeys.get(kid);
    if (!key) {
      key = this.database
        .asSystem((tx) => this.repository.publicKeys(tx))
        .then((keys) => {
          const found = keys.find((k) => k.kid === kid);
          if (!found) {
            throw new Error(`unknown signing key ${kid}`);
          }
          return importJWK(found.publicJwk, 'ES256');
        });
      key.catch(() => this.verifyKeys.delete(kid));
      this.verifyKeys.set(kid, key);
    }
    return key;
  }

  private activeKey(): Promise<ActiveKey> {
    if (!this.active) {
      this.active = this.loadOrCreate();
      this.active.catch(() => {
        this.active = undefined;
      });
    }
    return this.active;
  }

  private async loadOrCreate(): Promise<ActiveKey> {
    const secret = this.env.AUDIT_SIGNING_KEY_SECRET;
    const sealer = secret
      ? SecretSealer.fromSecret(secret, SIGNING_KEY_SALT, { keyName: 'AUDIT_SIGNING_KEY_SECRET' })
      : undefined;
    return this.database.asSystem(async (tx) => {
      await this.repository.lock(tx);
      if (sealer) {
        const stored = await this.repository.latestStored(tx);
        if (stored?.privateKeyEncrypted) {
          try {
            const pem = sealer.decrypt(stored.privateKeyEncrypted);
            return { kid: stored.kid, privateKey: await importPKCS8(pem, 'ES256') };
          } catch {
            this.logger.error(
              { kid: stored.kid },
              'stored signing key does not open with AUDIT_SIGNING_KEY_SECRET; a new key is made',
            );
          }
        }
      } else {
        this.logger.warn(
          'AUDIT_SIGNING_KEY_SECRET is not set: checkpoints are signed with an ephemeral key',
        );
      }
      const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
      const publicJwk: JWK = await exportJWK(publicKey);
      const kid = await calculateJwkThumbprint(publicJwk);
      const sealed = sealer ? sealer.encrypt(await exportPKCS8(privateKey)) : null;
      await this.repository.insert(tx, kid, publicJwk, sealed);
      return { kid, privateKey };
    });
  }
}
