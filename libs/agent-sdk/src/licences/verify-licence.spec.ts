import { SignJWT, exportJWK, generateKeyPair } from 'jose';

import { verifyLicence } from './verify-licence';

describe(verifyLicence.name, () => {
  const listingId = '0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab';
  const tenantId = '7c1e1a4c-1d2f-4e5a-9b7c-1234567890ab';

  async function platform() {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] };
    const sign = (claims: Record<string, unknown>, typ = 'agp-licence+jwt') =>
      new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1', typ }).sign(privateKey);
    return { jwks, sign };
  }

  function claims(overrides: Record<string, unknown> = {}) {
    const now = Math.floor(Date.now() / 1000);
    return {
      jti: 'l1',
      listingId,
      tenantId,
      installationId: 'i1',
      entitlements: ['a2a:call'],
      iat: now,
      exp: now + 60,
      ...overrides,
    };
  }

  it('should accept a licence of the listing and tenant signed by a key of the set', async () => {
    const { jwks, sign } = await platform();

    const sut = await verifyLicence(await sign(claims()), { jwks, listingId, tenantId });

    expect(sut).toEqual({
      valid: true,
      claims: claims({ iat: expect.any(Number), exp: expect.any(Number) }),
    });
  });

  it('should name why a licence is refused', async () => {
    const { jwks, sign } = await platform();
    const other = await platform();
    const now = Math.floor(Date.now() / 1000);

    const answers = await Promise.all([
      verifyLicence(undefined, { jwks }),
      verifyLicence('not-a-jws', { jwks }),
      verifyLicence(await other.sign(claims()), { jwks }),
      verifyLicence(await sign(claims({ iat: now - 120, exp: now - 60 })), { jwks }),
      verifyLicence(await sign(claims()), { jwks, listingId: 'another' }),
      verifyLicence(await sign(claims()), { jwks, tenantId: 'another' }),
      verifyLicence(await sign(claims(), 'JWT'), { jwks }),
      verifyLicence(await sign(claims({ entitlements: 'all' })), { jwks }),
    ]);

    expect(answers.map((a) => (a.valid ? 'valid' : a.reason))).toEqual([
      'missing',
      'malformed',
      'signature',
      'expired',
      'wrong_listing',
      'wrong_tenant',
      'malformed',
      'malformed',
    ]);
  });
});
