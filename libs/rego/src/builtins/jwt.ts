import {
  KeyObject,
  X509Certificate,
  constants,
  createHmac,
  createPrivateKey,
  createPublicKey,
  sign as cryptoSign,
  timingSafeEqual,
  verify as cryptoVerify,
} from 'node:crypto';
import { jsonText } from '../values/json';
import { RegoObject, RegoSet, Value, compareNumbers } from '../values/value';
import { builtinErr, def, isNum, num, obj, str } from './helpers';
import { BuiltinDef } from './types';
import { jwtPart, unmarshal } from './encoding';

// JWS verification and signing as OPA's v1/topdown/tokens.go does it, with node:crypto doing the
// cryptography (RSA PKCS#1 v1.5 and PSS, ECDSA with JOSE's r||s signatures, Ed25519, HMAC).

interface Alg {
  kind: 'hmac' | 'rsa' | 'pss' | 'ec' | 'eddsa';
  hash: string;
}

const FAMILIES = { HS: 'hmac', RS: 'rsa', PS: 'pss', ES: 'ec' } as const;

/** JWS `alg` values: HS/RS/PS/ES with SHA-256/384/512, and EdDSA. */
const ALGS: Record<string, Alg> = { EdDSA: { kind: 'eddsa', hash: '' } };
for (const [prefix, kind] of Object.entries(FAMILIES)) {
  for (const bits of ['256', '384', '512']) {
    ALGS[prefix + bits] = { kind, hash: `sha${bits}` };
  }
}

interface Token {
  header: string;
  payload: string;
  signature: string;
}

function splitToken(v: Value): Token {
  const t = str(v, 1);
  if (!t.includes('.')) {
    throw builtinErr('encoded JWT had no period separators');
  }
  const parts = t.split('.');
  if (parts.length !== 3) {
    throw builtinErr(`encoded JWT must have 3 sections, found ${parts.length}`);
  }
  return { header: parts[0], payload: parts[1], signature: parts[2] };
}

/** Public keys from a PEM certificate or public key, a JWK or a JWK set (OPA's getKeyFromCertOrJWK). */
function publicKeys(text: string): KeyObject[] {
  const pem = /^\s*-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----\r?\n?/.exec(text);
  if (pem) {
    if (text.slice(pem[0].length).trim() !== '') {
      throw builtinErr('extra data after a PEM certificate block');
    }
    if (pem[1] === 'CERTIFICATE') {
      try {
        return [new X509Certificate(pem[0]).publicKey];
      } catch {
        throw builtinErr('failed to parse a PEM certificate');
      }
    }
    if (pem[1] === 'PUBLIC KEY') {
      try {
        return [createPublicKey(pem[0])];
      } catch {
        throw builtinErr('failed to parse a PEM public key');
      }
    }
    throw builtinErr('failed to extract a Key from the PEM certificate');
  }
  if (text.trimStart().startsWith('-----BEGIN')) {
    throw builtinErr('failed to extract a Key from the PEM certificate');
  }
  try {
    const parsed = JSON.parse(text) as { keys?: Record<string, unknown>[] } & Record<
      string,
      unknown
    >;
    const jwks = Array.isArray(parsed.keys) ? parsed.keys : [parsed];
    return jwks.map((k) => createPublicKey({ key: k as never, format: 'jwk' }));
  } catch {
    throw builtinErr('failed to parse a JWK key (set)');
  }
}

function verifyWith(alg: Alg, key: KeyObject | Buffer, input: string, sig: Buffer): boolean {
  try {
    if (alg.kind === 'hmac') {
      if (!(key instanceof Buffer)) {
        return false;
      }
      const mac = createHmac(alg.hash, key).update(input).digest();
      return mac.length === sig.length && timingSafeEqual(mac, sig);
    }
    if (!(key instanceof KeyObject)) {
      return false;
    }
    const type = key.asymmetricKeyType;
    switch (alg.kind) {
      case 'rsa':
        return type === 'rsa' && cryptoVerify(alg.hash, Buffer.from(input), key, sig);
      case 'pss':
        return (
          (type === 'rsa' || type === 'rsa-pss') &&
          cryptoVerify(
            alg.hash,
            Buffer.from(input),
            {
              key,
              padding: constants.RSA_PKCS1_PSS_PADDING,
              saltLength: constants.RSA_PSS_SALTLEN_AUTO,
            },
            sig,
          )
        );
      case 'ec':
        return (
          type === 'ec' &&
          cryptoVerify(alg.hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }, sig)
        );
      case 'eddsa':
        return (
          (type === 'ed25519' || type === 'ed448') &&
          cryptoVerify(null, Buffer.from(input), key, sig)
        );
    }
  } catch {
    return false;
  }
}

function verifyBuiltin(name: string, algName: string): BuiltinDef {
  const alg = ALGS[algName];
  return def(name, 2, ([t, k]) => {
    const token = splitToken(t);
    const keyText = str(k, 2);
    const keys: (KeyObject | Buffer)[] =
      alg.kind === 'hmac' ? [Buffer.from(keyText, 'utf8')] : publicKeys(keyText);
    const sig = jwtPart(token.signature, 'signature');
    const input = token.header + '.' + token.payload;
    return keys.some((key) => verifyWith(alg, key, input, sig));
  });
}

interface Constraints {
  keys?: KeyObject[];
  secret?: string;
  alg?: string;
  iss?: string;
  aud?: string;
  time?: number | bigint;
}

function constraintsOf(v: Value): Constraints {
  const c: Constraints = {};
  for (const [k, val] of obj(v, 2).entries()) {
    const name = typeof k === 'string' ? k : jsonText(k);
    switch (name) {
      case 'cert':
        c.keys = publicKeys(str(val, 2));
        break;
      case 'secret':
        c.secret = str(val, 2);
        break;
      case 'alg':
      case 'iss':
      case 'aud':
        c[name] = str(val, 2);
        break;
      case 'time':
        if (!isNum(val)) {
          throw builtinErr('time: must be a number');
        }
        c.time = num(val, 2);
        break;
      default:
        throw builtinErr(`unknown token validation constraint: ${name}`);
    }
  }
  if (c.keys && c.secret !== undefined) {
    throw builtinErr('duplicate key constraints');
  }
  if (!c.keys && c.secret === undefined) {
    throw builtinErr('no key constraint');
  }
  return c;
}

/** RFC 7515 §4.1.1 and §4.1.11: `alg` present, every critical parameter understood. */
function headerValid(h: RegoObject): boolean {
  const alg = h.get('alg');
  if (typeof alg !== 'string' || alg === '') {
    return false;
  }
  const crit = h.get('crit');
  if (crit !== undefined) {
    const known = new Set(['alg', 'kid', 'typ', 'cty', 'crit']);
    const names = Array.isArray(crit) ? crit : [];
    if (names.length === 0 || names.some((n) => typeof n !== 'string')) {
      throw builtinErr('crit: must be a nonempty list of strings');
    }
    for (const k of h.keys()) {
      if (typeof k === 'string' && !known.has(k) && names.includes(k)) {
        return false;
      }
    }
  }
  return true;
}

function decodeVerify(t: Value, cv: Value, nowNs: bigint): Value {
  const invalid: Value = [false, new RegoObject(), new RegoObject()];
  const c = constraintsOf(cv);
  let text: Value = t;
  let header: RegoObject;
  let payloadText: string;
  for (;;) {
    const token = splitToken(text);
    const h = unmarshal(jwtPart(token.header, 'header').toString('utf8'));
    if (!(h instanceof RegoObject)) {
      throw builtinErr('bad JWT header: decoded JSON type was not an Object');
    }
    if (h.get('enc') !== undefined) {
      throw builtinErr('JWT is a JWE object, which is not supported');
    }
    header = h;
    if (!headerValid(h)) {
      return invalid;
    }
    const algName = h.get('alg') as string;
    if (c.alg !== undefined && c.alg !== algName) {
      return invalid;
    }
    const alg = ALGS[algName];
    if (!alg) {
      throw builtinErr(`unknown JWS algorithm: ${algName}`);
    }
    const sig = jwtPart(token.signature, 'signature');
    const input = token.header + '.' + token.payload;
    const keys: (KeyObject | Buffer)[] = c.keys ?? [Buffer.from(c.secret ?? '', 'utf8')];
    if (!keys.some((k) => verifyWith(alg, k, input, sig))) {
      return invalid;
    }
    payloadText = jwtPart(token.payload, 'payload').toString('utf8');
    const cty = h.get('cty');
    if (typeof cty === 'string' && cty.toUpperCase() === 'JWT') {
      text = payloadText;
      continue;
    }
    break;
  }
  const payload = unmarshal(payloadText);
  if (!(payload instanceof RegoObject)) {
    throw builtinErr('decoded JSON type was not an Object');
  }
  const iss = payload.get('iss');
  if (c.iss !== undefined && iss !== c.iss) {
    return invalid;
  }
  const aud = payload.get('aud');
  if (aud !== undefined) {
    const ok =
      typeof aud === 'string'
        ? aud === c.aud
        : Array.isArray(aud) &&
          aud.every((a) => typeof a === 'string') &&
          aud.includes(c.aud ?? '');
    if (!ok || c.aud === undefined) {
      return invalid;
    }
  } else if (c.aud !== undefined) {
    return invalid;
  }
  const now = Number(c.time ?? nowNs) / 1e9;
  const exp = payload.get('exp');
  if (exp !== undefined) {
    if (!isNum(exp)) {
      throw builtinErr('exp value must be a number');
    }
    if (compareNumbers(now, exp) !== -1) {
      return invalid;
    }
  }
  const nbf = payload.get('nbf');
  if (nbf !== undefined) {
    if (!isNum(nbf)) {
      throw builtinErr('nbf value must be a number');
    }
    if (compareNumbers(now, nbf) === -1) {
      return invalid;
    }
  }
  return [true, header, payload];
}

/** Signs `payload` with the first key of a JWK (set), as OPA's commonBuiltinJWTEncodeSign. */
function encodeSign(headerText: string, payload: string, jwkText: string): string {
  let jwk: Record<string, unknown>;
  try {
    const parsed = JSON.parse(jwkText) as { keys?: Record<string, unknown>[] } & Record<
      string,
      unknown
    >;
    jwk = Array.isArray(parsed.keys) ? parsed.keys[0] : parsed;
  } catch {
    throw builtinErr('failed to parse a JWK key (set)');
  }
  let hdr: unknown;
  try {
    hdr = JSON.parse(headerText);
  } catch {
    // The JOSE library OPA uses looks for "alg" before parsing: text that is no JSON object at all
    // has no "alg" header; a broken object cannot be parsed.
    if (headerText !== '' && !headerText.trimStart().startsWith('{')) {
      throw builtinErr(`missing or invalid 'alg' header: jwsbb: header "alg" not found`);
    }
    throw builtinErr(
      headerText === ''
        ? "missing or invalid 'alg' header: cannot parse JSON: cannot parse empty string"
        : "missing or invalid 'alg' header: cannot parse JSON",
    );
  }
  const algName = hdr && typeof hdr === 'object' ? (hdr as Record<string, unknown>).alg : undefined;
  if (typeof algName !== 'string') {
    throw builtinErr(`missing or invalid 'alg' header: jwsbb: header "alg" not found`);
  }
  const alg = ALGS[algName];
  if (!alg) {
    throw builtinErr(`unknown JWS algorithm: ${algName}`);
  }
  const typ = (hdr as Record<string, unknown>).typ;
  if (typ === undefined || typ === '' || typ === 'JWT') {
    try {
      JSON.parse(payload);
    } catch {
      throw builtinErr('type is JWT but payload is not JSON');
    }
  }
  const input =
    Buffer.from(headerText, 'utf8').toString('base64url') +
    '.' +
    Buffer.from(payload, 'utf8').toString('base64url');
  let sig: Buffer;
  try {
    if (alg.kind === 'hmac') {
      if (jwk.kty !== 'oct' || typeof jwk.k !== 'string') {
        throw new Error('not a symmetric key');
      }
      sig = createHmac(alg.hash, Buffer.from(jwk.k, 'base64url')).update(input).digest();
    } else {
      const key = createPrivateKey({ key: jwk as never, format: 'jwk' });
      sig =
        alg.kind === 'eddsa'
          ? cryptoSign(null, Buffer.from(input), key)
          : cryptoSign(alg.hash, Buffer.from(input), {
              key,
              ...(alg.kind === 'pss'
                ? {
                    padding: constants.RSA_PKCS1_PSS_PADDING,
                    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
                  }
                : {}),
              ...(alg.kind === 'ec' ? { dsaEncoding: 'ieee-p1363' as const } : {}),
            });
    }
  } catch (e) {
    throw builtinErr(`failed to sign: ${e instanceof Error ? e.message : String(e)}`);
  }
  return input + '.' + sig.toString('base64url');
}

/** OPA serialises the object operands of io.jwt.encode_sign as JSON (sets become arrays). */
function jsonOf(v: Value): string {
  return jsonText(v instanceof RegoSet ? v.values() : v);
}

export const JWT_BUILTINS: BuiltinDef[] = [
  ...Object.keys(ALGS)
    .filter((a) => a !== 'EdDSA')
    .map((a) => verifyBuiltin(`io.jwt.verify_${a.toLowerCase()}`, a)),
  verifyBuiltin('io.jwt.verify_eddsa', 'EdDSA'),
  def('io.jwt.decode_verify', 2, ([t, c], ctx) => decodeVerify(t, c, ctx.nowNs())),
  def('io.jwt.encode_sign', 3, ([h, p, k]) =>
    encodeSign(jsonOf(obj(h, 1)), jsonOf(obj(p, 2)), jsonOf(obj(k, 3))),
  ),
  def('io.jwt.encode_sign_raw', 3, ([h, p, k]) => encodeSign(str(h, 1), str(p, 2), str(k, 3))),
];
