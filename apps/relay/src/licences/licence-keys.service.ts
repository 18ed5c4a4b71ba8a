import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import {
  JSONWebKeySet,
  JWK,
  KeyLike,
  SignJWT,
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
} from 'jose';

import { RELAY_DATABASE } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { LicenceKeysRepository } from './licence-keys.repository';
import { LICENCE_TYP } from './licence.types';

const ALG = 'ES256';

/**
 * MK21, MK22: licences are signed with the platform's ES256 key, named by its JWK thumbprint
 * (`kid`), as the audit's checkpoint keys are; the private key is stored sealed with SECRETS_KEY,
 * so every replica signs with the same key. Rotation retires the signing key; a retired key stays
 * in the JWKS while a licence it signed has not expired.
 */
@Injectable()
export class LicenceKeys {
  /** Keys never change under their kid, so what was imported once stays right. */
  private readonly privateKeys = new Map<string, Promise<KeyLike>>();
  private readonly publicKeys = new Map<string, Promise<KeyLike | Uint8Array>>();

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly keys: LicenceKeysRepository,
    private readonly cipher: CredentialCipher,
  ) {}

  /** A compact JWS of `claims` under the current key (made on first use). */
  async sign(tx: Tx, claims: Record<string, unknown>): Promise<{ kid: string; token: string }> {
    const current = (await this.keys.current(tx)) ?? (await this.create(tx));
    let privateKey = this.privateKeys.get(current.kid);
    if (!privateKey) {
      privateKey = importPKCS8(this.cipher.decrypt(current.privateKeySealed), ALG);
      privateKey.catch(() => this.privateKeys.delete(current.kid));
      this.privateKeys.set(current.kid, privateKey);
    }
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: current.kid, typ: LICENCE_TYP })
      .sign(await privateKey);
    return { kid: current.kid, token };
  }

  /** The public key of `kid`, or undefined when the platform never had it. */
  async publicKey(kid: string): Promise<KeyLike | Uint8Array | undefined> {
    let key = this.publicKeys.get(kid);
    if (!key) {
      const jwk = await this.database.asSystem((tx) => this.keys.find(tx, kid));
      if (!jwk) {
        return undefined;
      }
      key = importJWK(jwk, ALG);
      key.catch(() => this.publicKeys.delete(kid));
      this.publicKeys.set(kid, key);
    }
    return key;
  }

  /** `GET /relay/v1/licences/keys` (D47): the public JWKS offline verifiers read. */
  async jwks(): Promise<JSONWebKeySet> {
    const keys = await this.database.asSystem((tx) => this.keys.published(tx));
    return {
      keys: keys.map((key) => ({ ...key.publicJwk, kid: key.kid, alg: ALG, use: 'sig' })),
    };
  }

  /** MK22: the next licence is signed with a new key; the old one verifies what it signed. */
  async rotate(): Promise<string> {
    return this.database.asSystem(async (tx) => {
      await this.keys.lock(tx);
      await this.keys.retireCurrent(tx);
      return (await this.create(tx)).kid;
    });
  }

  private async create(tx: Tx): Promise<{ kid: string; privateKeySealed: string }> {
    await this.keys.lock(tx);
    const again = await this.keys.current(tx);
    if (again) {
      return again;
    }
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const publicJwk: JWK = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateKeySealed = this.cipher.encrypt(await exportPKCS8(privateKey));
    await this.keys.insert(tx, { kid, publicJwk, privateKeySealed });
    return { kid, privateKeySealed };
  }
}
