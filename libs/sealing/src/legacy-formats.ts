/** The parts of a value sealed before F37 (no associated data). */
export interface LegacySealed {
  keyId?: string;
  iv: string;
  tag: string;
  data: string;
}

/**
 * The two `v1` shapes the services wrote before F37, told apart by their number of parts:
 * `v1.<iv>.<tag>.<ciphertext>` (tenant-auth's signing keys and client secrets, audit's signing
 * key) and `v1.<keyId>.<iv>.<tag>.<ciphertext>` (relay's upstream credentials, D37). Read only.
 */
export function parseLegacy(parts: string[]): LegacySealed {
  if (parts[0] === 'v1' && parts.length === 4 && parts[1] && parts[2]) {
    return { iv: parts[1], tag: parts[2], data: parts[3] };
  }
  if (parts[0] === 'v1' && parts.length === 5 && parts[1] && parts[2] && parts[3]) {
    return { keyId: parts[1], iv: parts[2], tag: parts[3], data: parts[4] };
  }
  throw new Error('not a sealed value');
}
