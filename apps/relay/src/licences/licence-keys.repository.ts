import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';
import { JWK } from 'jose';

const S = 'relay';

export interface LicenceKeyRow {
  kid: string;
  publicJwk: JWK;
  privateKeySealed: string;
}

/** The platform's licence keys: no tenant's rows, read in the system scope (MK21). */
@Injectable()
export class LicenceKeysRepository {
  /** Serialises key creation and rotation across replicas for the rest of the transaction. */
  async lock(tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('agp:relay:licence-key'))`);
  }

  async current(tx: Tx): Promise<LicenceKeyRow | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT kid, public_jwk, private_key_sealed FROM ${S}.licence_signing_keys
        WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    );
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  async insert(tx: Tx, key: LicenceKeyRow): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.licence_signing_keys (kid, public_jwk, private_key_sealed)
       VALUES ($1, $2, $3) ON CONFLICT (kid) DO NOTHING`,
      [key.kid, JSON.stringify(key.publicJwk), key.privateKeySealed],
    );
  }

  async retireCurrent(tx: Tx): Promise<void> {
    await tx.query(
      `UPDATE ${S}.licence_signing_keys SET retired_at = now() WHERE retired_at IS NULL`,
    );
  }

  async find(tx: Tx, kid: string): Promise<JWK | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT public_jwk FROM ${S}.licence_signing_keys WHERE kid = $1`,
      [kid],
    );
    return rows[0] ? (rows[0].public_jwk as JWK) : undefined;
  }

  /** MK22: the signing key and every retired key a licence not yet expired was signed with. */
  async published(tx: Tx): Promise<Array<{ kid: string; publicJwk: JWK }>> {
    const rows: Row[] = await tx.query(
      `SELECT k.kid, k.public_jwk FROM ${S}.licence_signing_keys k
        WHERE k.retired_at IS NULL
           OR EXISTS (SELECT 1 FROM ${S}.marketplace_licences l
                       WHERE l.kid = k.kid AND l.expires_at > now())
        ORDER BY k.created_at`,
    );
    return rows.map((row) => ({ kid: String(row.kid), publicJwk: row.public_jwk as JWK }));
  }
}

function toKey(row: Row): LicenceKeyRow {
  return {
    kid: String(row.kid),
    publicJwk: row.public_jwk as JWK,
    privateKeySealed: String(row.private_key_sealed),
  };
}
