import { randomUUID } from 'node:crypto';

import { HttpProblem } from '@agp/http';
import { ForgedCase, TestTokenIssuer, forgedTokenCases, validPayload } from '@agp/testing';
import { JWTPayload, JWTVerifyOptions, SignJWT, createLocalJWKSet, jwtVerify } from 'jose';

import { audiencesFor } from './audiences';
import { authenticate } from './auth.guard';
import { InProcessRevocationStore, revocationKey } from './revocations';
import { revocationCheck } from './revocation-check';
import { TokenVerifier, principalOf, requireKid, verifyOptions } from './token-verifier';

const API_PATH = '/audit/v1/events';
const MCP_PATH = `/relay/mcp/${randomUUID()}`;

describe(TokenVerifier.name, () => {
  let issuer: TestTokenIssuer;
  let sut: TokenVerifier;
  const tenantId = randomUUID();
  const claims = { tid: tenantId, sub: randomUUID(), kind: 'USER' as const, perms: ['AUDIT:READ'] };
  const audiences = audiencesFor('http://agp.test');

  beforeAll(async () => {
    issuer = await TestTokenIssuer.create();
    sut = new TokenVerifier(issuer.authOptions());
  });

  const statusOf = async (path: string, authorization: string | undefined): Promise<number> => {
    try {
      await authenticate(sut, audiences, { url: path, headers: { authorization } });
      return 200;
    } catch (error) {
      return (error as HttpProblem).status;
    }
  };

  const sign = (payload: JWTPayload): Promise<string> =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', kid: issuer.kid })
      .sign(issuer.signer().privateKey);

  describe('forged-token matrix', () => {
    for (const path of [API_PATH, MCP_PATH]) {
      it(`should answer 401 to every forged token on ${path.startsWith('/relay/mcp') ? 'an MCP' : 'an API'} path`, async () => {
        const cases = await forgedTokenCases(issuer.signer(), claims, path);
        expect(cases.length).toBeGreaterThanOrEqual(30);
        const accepted: string[] = [];
        for (const forged of cases) {
          if ((await statusOf(path, forged.authorization)) !== 401) {
            accepted.push(forged.name);
          }
        }
        expect(accepted).toEqual([]);
      });
    }

    it('should accept the genuine token the forgeries are made from, on both kinds of path', async () => {
      const signer = issuer.signer();
      expect(
        await statusOf(
          API_PATH,
          `Bearer ${await sign(validPayload(signer, claims, audiences.api, 'svc:api'))}`,
        ),
      ).toBe(200);
      expect(
        await statusOf(
          MCP_PATH,
          `Bearer ${await sign(validPayload(signer, claims, audiences.mcp, 'mcp:call'))}`,
        ),
      ).toBe(200);
    });
  });

  describe('each option is pinned by the matrix', () => {
    /** Verifies like TokenVerifier but with one option removed; returns the cases that now get through. */
    async function acceptedWithout(
      option: keyof JWTVerifyOptions | 'kid',
      path: string,
      extra: ForgedCase[] = [],
    ): Promise<string[]> {
      const audience = path === API_PATH ? audiences.api : audiences.mcp;
      const options = verifyOptions(issuer.issuer, audience, 30);
      if (option !== 'kid') {
        delete options[option];
      }
      const keys =
        option === 'kid'
          ? createLocalJWKSet(issuer.jwks)
          : requireKid(createLocalJWKSet(issuer.jwks));
      const accepted: string[] = [];
      for (const forged of [...(await forgedTokenCases(issuer.signer(), claims, path)), ...extra]) {
        const token = /^Bearer (.+)$/.exec(forged.authorization ?? '')?.[1];
        try {
          principalOf((await jwtVerify(token ?? '', keys, options)).payload);
          accepted.push(forged.name);
        } catch {
          // still rejected without the option
        }
      }
      return accepted;
    }

    it('should let a wrong issuer through when `issuer` is removed', async () => {
      expect(await acceptedWithout('issuer', API_PATH)).toContain('wrong iss');
    });

    it('should let a wrong audience and the other path audience through when `audience` is removed', async () => {
      const accepted = await acceptedWithout('audience', API_PATH);
      expect(accepted).toEqual(
        expect.arrayContaining(['wrong aud', 'an mcp:call token on an API path']),
      );
      expect(await acceptedWithout('audience', MCP_PATH)).toContain(
        'an svc:api token on /relay/mcp',
      );
    });

    it('should let tokens without exp, iat, nbf or jti through when `requiredClaims` is removed', async () => {
      expect(await acceptedWithout('requiredClaims', API_PATH)).toEqual(
        expect.arrayContaining(['missing exp', 'missing iat', 'missing nbf', 'missing jti']),
      );
    });

    it('should refuse a token inside the 30 s skew when `clockTolerance` is removed', async () => {
      const now = Math.floor(Date.now() / 1000);
      const lateButInSkew = await sign({
        ...validPayload(issuer.signer(), claims, audiences.api, 'svc:api'),
        exp: now - 20,
      });
      const options = verifyOptions(issuer.issuer, audiences.api, 30);
      await expect(
        jwtVerify(lateButInSkew, createLocalJWKSet(issuer.jwks), options),
      ).resolves.toBeDefined();
      delete options.clockTolerance;
      await expect(
        jwtVerify(lateButInSkew, createLocalJWKSet(issuer.jwks), options),
      ).rejects.toThrow();
    });

    it('should let a token without kid through when the kid requirement is removed', async () => {
      expect(await acceptedWithout('kid', API_PATH)).toEqual(['no kid']);
    });

    it('should still refuse every algorithm confusion when `algorithms` is removed, as the JWKS key selection does too', async () => {
      // Defence in depth: jose picks a JWKS key by the token's alg, so no forged case gets through
      // either way; `algorithms` stays so that a key source without that selection cannot be confused.
      expect(await acceptedWithout('algorithms', API_PATH)).toEqual([]);
    });

    it('should let a bad tid or kind through when the principal checks are skipped', async () => {
      const options = verifyOptions(issuer.issuer, audiences.api, 30);
      const cases = await forgedTokenCases(issuer.signer(), claims, API_PATH);
      const passing: string[] = [];
      for (const name of [
        'tid not a tenant id',
        'kind not a caller kind',
        'missing tid',
        'missing kind',
      ]) {
        const token = cases.find((c) => c.name === name)!.authorization!.slice(7);
        const { payload } = await jwtVerify(token, createLocalJWKSet(issuer.jwks), {
          ...options,
          requiredClaims: ['exp'],
        });
        passing.push(payload ? name : '');
        expect(() => principalOf(payload)).toThrow();
      }
      expect(passing).toHaveLength(4);
    });
  });

  describe('clock skew (D9: 30 s)', () => {
    const at = async (change: Partial<JWTPayload>): Promise<number> =>
      statusOf(
        API_PATH,
        `Bearer ${await sign({ ...validPayload(issuer.signer(), claims, audiences.api, 'svc:api'), ...change })}`,
      );

    it('should accept a token expired or not yet valid by less than 30 s', async () => {
      const now = Math.floor(Date.now() / 1000);
      expect(await at({ exp: now - 25, iat: now - 900, nbf: now - 900 })).toBe(200);
      expect(await at({ nbf: now + 25 })).toBe(200);
    });

    it('should refuse a token expired or not yet valid by more than 30 s', async () => {
      const now = Math.floor(Date.now() / 1000);
      expect(await at({ exp: now - 35, iat: now - 900, nbf: now - 900 })).toBe(401);
      expect(await at({ nbf: now + 35 })).toBe(401);
    });
  });

  describe('revocations', () => {
    it('should refuse a verified token once its tenant or its subject is revoked, and again accept it when lifted', async () => {
      const store = new InProcessRevocationStore();
      const check = revocationCheck(store);
      const token = await issuer.token({ tenantId, subject: claims.sub });
      const run = (): Promise<unknown> =>
        authenticate(
          sut,
          audiences,
          { url: API_PATH, headers: { authorization: `Bearer ${token}` } },
          check,
        );
      await expect(run()).resolves.toBeDefined();
      await store.revoke(revocationKey('TENANT', tenantId), 'SUSPENDED');
      await expect(run()).rejects.toMatchObject({ status: 401 });
      await store.restore(revocationKey('TENANT', tenantId));
      await store.revoke(revocationKey('USER', claims.sub), 'DELETED');
      await expect(run()).rejects.toMatchObject({ status: 401 });
      await store.restore(revocationKey('USER', claims.sub));
      await expect(run()).resolves.toBeDefined();
    });
  });
});
