import { JWK } from 'jose';

/** An ES256 signing key (D9). Platform-wide, not a tenant's: no tenant_id, no row-level security. */
export interface SigningKey {
  kid: string;
  /** The private JWK, sealed with KEY_ENCRYPTION_SECRET (AES-256-GCM). */
  privateKeySealed: string;
  publicJwk: JWK;
  createdAt: Date;
  /** Null while it signs; set when a newer key takes over. */
  retiredAt: Date | null;
  /** D9: stays in the JWKS until every token it signed has expired (retiredAt + TTL + skew). */
  publishedUntil: Date | null;
}
