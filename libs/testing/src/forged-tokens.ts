import { KeyObject, createHmac, randomUUID, sign as signBytes } from 'node:crypto';

import {
  JWK,
  JWTPayload,
  KeyLike,
  SignJWT,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  importJWK,
} from 'jose';

/** The key a platform under test trusts (tenant-auth's active key, or a TestTokenIssuer's). */
export interface TrustedSigner {
  /** D6: `{base_url}/tenant-auth/v1`. */
  issuer: string;
  /** D8: the API audience, `{base_url}`. */
  apiAudience: string;
  kid: string;
  privateKey: KeyLike;
  publicJwk: JWK;
}

/** The claims of a token that would be valid: forgeries change exactly one thing about it. */
export interface ValidClaims {
  tid: string;
  sub: string;
  kind: 'USER' | 'AGENT' | 'SERVICE';
  perms: string[];
}

export interface ForgedCase {
  name: string;
  authorization?: string;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function rawToken(
  header: Record<string, unknown>,
  payload: JWTPayload,
  sign: (input: string) => string,
): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
}

/** Every claim of D9, for `audience`, valid now. */
export function validPayload(
  signer: TrustedSigner,
  claims: ValidClaims,
  audience: string,
  scope: string,
): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: signer.issuer,
    sub: claims.sub,
    aud: audience,
    iat: now,
    nbf: now,
    exp: now + 900,
    jti: randomUUID(),
    tid: claims.tid,
    kind: claims.kind,
    scope,
    perms: claims.perms,
  };
}

async function es256(
  key: KeyLike,
  header: Record<string, unknown>,
  payload: JWTPayload,
): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...header }).sign(key);
}

function without(payload: JWTPayload, claim: string): JWTPayload {
  const copy = { ...payload };
  delete copy[claim];
  return copy;
}

/** The forged-token matrix of issue 4 (D8). */
export async function forgedTokenCases(
  signer: TrustedSigner,
  claims: ValidClaims,
  path: string,
): Promise<ForgedCase[]> {
  // D8: the traffic paths that take relay-audience tokens (MCP, and A2A since issue 13).
  const isMcp = ['/relay/mcp', '/relay/a2a', '/relay/llm'].some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`),
  );
  const mcpAudience = `${signer.apiAudience}/relay`;
  const audience = isMcp ? mcpAudience : signer.apiAudience;
  const scope = isMcp ? 'mcp:call' : 'svc:api';
  const valid = validPayload(signer, claims, audience, scope);
  const now = Math.floor(Date.now() / 1000);
  const kid = { kid: signer.kid };
  const sign = (payload: JWTPayload, header: Record<string, unknown> = kid): Promise<string> =>
    es256(signer.privateKey, header, payload);

  const attacker = await generateKeyPair('ES256', { extractable: true });
  const attackerJwk = await exportJWK(attacker.publicKey);
  const p384 = await generateKeyPair('ES384', { extractable: true });
  const publicPem = await exportSPKI(
    (await importJWK({ ...signer.publicJwk, alg: 'ES256' }, 'ES256')) as KeyLike,
  );
  const hs256 = (secret: string) => (input: string) =>
    createHmac('sha256', secret).update(input).digest('base64url');
  const genuine = await sign(valid);
  const [gh, , gs] = genuine.split('.');
  const otherBase = 'https://other-environment.example';

  const tokens: Array<[string, Promise<string> | string | undefined, string?]> = [
    ['no Authorization header', undefined],
    [
      'Basic credentials instead of a bearer token',
      undefined,
      `Basic ${Buffer.from(`${claims.sub}:secret`).toString('base64')}`,
    ],
    ['a valid token under another scheme', undefined, `Token ${genuine}`],
    ['not a JWT', 'not-a-jwt'],
    ['alg none, no signature', rawToken({ alg: 'none', typ: 'JWT', ...kid }, valid, () => '')],
    [
      'HS256 signed with the public JWK',
      rawToken(
        { alg: 'HS256', typ: 'JWT', ...kid },
        valid,
        hs256(JSON.stringify(signer.publicJwk)),
      ),
    ],
    [
      'HS256 signed with the public key PEM',
      rawToken({ alg: 'HS256', typ: 'JWT', ...kid }, valid, hs256(publicPem)),
    ],
    [
      'ES384 under the trusted kid',
      new SignJWT(valid).setProtectedHeader({ alg: 'ES384', ...kid }).sign(p384.privateKey),
    ],
    ['unknown kid', sign(valid, { kid: randomUUID() })],
    ['injected kid (path traversal)', sign(valid, { kid: '../../../../../../dev/null' })],
    ['injected kid (SQL)', sign(valid, { kid: "' OR '1'='1" })],
    ['no kid', sign(valid, {})],
    ['bad signature: another key under the trusted kid', es256(attacker.privateKey, kid, valid)],
    [
      'attacker key embedded in the jwk header',
      es256(attacker.privateKey, { ...kid, jwk: attackerJwk }, valid),
    ],
    [
      'attacker JWKS named by jku',
      es256(attacker.privateKey, { ...kid, jku: 'https://attacker.example/jwks.json' }, valid),
    ],
    [
      'tampered payload',
      `${gh}.${b64({ ...valid, perms: ['TENANT:ADMIN', 'USERS:ADMIN', 'AUDIT:ADMIN'] })}.${gs}`,
    ],
    ['signature stripped', `${gh}.${genuine.split('.')[1]}.`],
    [
      'unknown critical header',
      // jose will not sign a crit it does not know, so this one is signed by hand with the trusted key.
      rawToken({ alg: 'ES256', ...kid, crit: ['x-agp'], 'x-agp': true }, valid, (input) =>
        signBytes('sha256', Buffer.from(input), {
          key: signer.privateKey as KeyObject,
          dsaEncoding: 'ieee-p1363',
        }).toString('base64url'),
      ),
    ],
    [
      'expired beyond the 30 s skew',
      sign({ ...valid, iat: now - 960, nbf: now - 960, exp: now - 31 }),
    ],
    ['not yet valid (nbf beyond the 30 s skew)', sign({ ...valid, nbf: now + 120 })],
    ['missing exp', sign(without(valid, 'exp'))],
    ['missing iat', sign(without(valid, 'iat'))],
    ['missing nbf', sign(without(valid, 'nbf'))],
    ['missing jti', sign(without(valid, 'jti'))],
    ['missing sub', sign(without(valid, 'sub'))],
    ['missing tid', sign(without(valid, 'tid'))],
    ['missing kind', sign(without(valid, 'kind'))],
    ['tid not a tenant id', sign({ ...valid, tid: 'acme' })],
    ['kind not a caller kind', sign({ ...valid, kind: 'ROOT' })],
    ['wrong iss', sign({ ...valid, iss: 'https://evil.example/tenant-auth/v1' })],
    ['wrong aud', sign({ ...valid, aud: 'https://evil.example' })],
    [
      isMcp ? 'an svc:api token on /relay/mcp' : 'an mcp:call token on an API path',
      sign({
        ...valid,
        aud: isMcp ? signer.apiAudience : mcpAudience,
        scope: isMcp ? 'svc:api' : 'mcp:call',
      }),
    ],
    [
      "another environment's token",
      es256(
        attacker.privateKey,
        { kid: randomUUID() },
        {
          ...valid,
          iss: `${otherBase}/tenant-auth/v1`,
          aud: isMcp ? `${otherBase}/relay` : otherBase,
        },
      ),
    ],
    [
      "another environment's token under the trusted kid",
      es256(attacker.privateKey, kid, {
        ...valid,
        iss: `${otherBase}/tenant-auth/v1`,
        aud: otherBase,
      }),
    ],
  ];
  const cases: ForgedCase[] = [];
  for (const [name, token, header] of tokens) {
    const resolved = await token;
    cases.push({
      name,
      authorization: header ?? (resolved === undefined ? undefined : `Bearer ${resolved}`),
    });
  }
  return cases;
}
