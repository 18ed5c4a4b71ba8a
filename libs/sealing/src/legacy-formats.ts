/** The parts of a value sealed before F37 (no associated data). */
export interface LegacySealed {
  keyId?: string;
  iv: string;
  tag: string;
  data: string;
}

/** Read only (F37, D37). */
export function parseLegacy(parts: string[]): LegacySealed {
  if (parts[0] === 'v1' && parts.length === 4 && parts[1] && parts[2]) {
    return { iv: parts[1], tag: parts[2], data: parts[3] };
  }
  if (parts[0] === 'v1' && parts.length === 5 && parts[1] && parts[2] && parts[3]) {
    return { keyId: parts[1], iv: parts[2], tag: parts[3], data: parts[4] };
  }
  throw new Error('not a sealed value');
}
