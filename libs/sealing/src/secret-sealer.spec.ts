import { randomBytes } from 'node:crypto';

import { SecretSealer } from './secret-sealer';

/**
 * Values sealed by the three implementations F37 replaced, captured from them (tenant-auth's
 * `SecretBox`, audit's `encryptPrivateKey`, relay's `CredentialCipher`) before they were deleted,
 * with the keys configured as the services configure them.
 */
const TENANT_AUTH = {
  secret: 'fixture-key-encryption-secret-0123456789',
  salt: 'agp/tenant-auth/secret-box',
  sealed: {
    '{"kty":"EC","d":"private"}':
      'v1.xXyNbs9yktw6MRzC.M4MGsRE5m2k6dpy9xlFiSw.d3s31lR2gLQMsJGq00YRWnyXBwtAS9ss3dc',
    '': 'v1.5KAVX9vKocIQWOsj.l-8vIVRniiKFe4_-w9itwA.',
    'client-secret Ünïcode 🔑':
      'v1.CkjxDevavLkwxM4D.baRVsSlodNueOvajmr-cjw.aTktEPA51Hk7QtlsXCypN6XT1S2OAvIPEbeJKw',
  },
};
const AUDIT = {
  secret: 'fixture-audit-signing-key-secret-0123456789',
  salt: 'agp-audit-signing-key-v1',
  sealed: {
    '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n':
      'v1.U1ScElF3d44c9Etw.uKs6fA300mG_sJ02BWnXRw.hB7SxF5ps7KUD0LebCK7CEu4OfKgx4z486KTrh-NfOj8mUmi5k8XUkgEwoacnRjF4rPssmPL1qx2vfc',
    x: 'v1.8GsdX434BG47ehEj.NCsDLsraX75BzLgBJMTzhQ.Qg',
  },
};
const RELAY = {
  key: 'AwoRGB8mLTQ7QklQV15lbHN6gYiPlp2kq7K5wMfO1dw=',
  sealed: {
    'sk-live-123 456': 'v1.q1-LXLlD.htL5zs8iZTyFuhOZ.n-9CiTZFEG1q7TdPo8jlnQ.O0Dqh3SnUi7WOM9bTdKV',
    '': 'v1.q1-LXLlD.4HFM-d_vF-_HEeVA.2_RurjZ780QbYXd8nQl23g.',
    '{"authorization":"Bearer t"}':
      'v1.q1-LXLlD.jdC4mLq1CaQlTWxl.UIo8EelMd_z-nJ_a8unxIA.ImTnJukN4fEKIgIYZHQHhwjijHnI8omrjL6N4A',
  },
};

describe(SecretSealer.name, () => {
  const sut = new SecretSealer(randomBytes(32), { keyName: 'SECRETS_KEY' });

  it('should give back the plain text when it decrypts what it encrypted', () => {
    const plain = 'sk-live-Ünïcode-🔑-' + 'x'.repeat(4_000);

    expect(sut.decrypt(sut.encrypt(plain))).toBe(plain);
    expect(sut.decrypt(sut.encrypt(''))).toBe('');
  });

  it('should seal the same text differently each time, as v2 with the key id, never containing it', () => {
    const first = sut.encrypt('top-secret-token');
    const second = sut.encrypt('top-secret-token');

    expect(first).not.toBe(second);
    expect(first).not.toContain('top-secret');
    expect(first).toMatch(/^v2\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('should refuse naming the configured key when the value was sealed with another key', () => {
    const other = new SecretSealer(randomBytes(32), { keyName: 'SECRETS_KEY' });

    expect(() => other.decrypt(sut.encrypt('secret'))).toThrow(
      /sealed with another key .*SECRETS_KEY/,
    );
  });

  it.each([1, 2, 3, 4])('should refuse when part %d of the sealed value was altered', (index) => {
    const parts = sut.encrypt('secret').split('.');
    const bytes = Buffer.from(parts[index], 'base64url');
    bytes[0] ^= 1;
    parts[index] = bytes.toString('base64url');

    expect(() => sut.decrypt(parts.join('.'))).toThrow();
  });

  it('should refuse a v2 value whose header was relabelled as v1', () => {
    const relabelled = sut.encrypt('secret').replace(/^v2/, 'v1');

    expect(() => sut.decrypt(relabelled)).toThrow();
  });

  it.each(['', 'secret', 'v3.a.b.c.d', 'v1.a.b', 'v1.a.b.c.d.e', 'v2.a.b.c', 'v2.a.b.c.d.e'])(
    'should refuse %p when it is not a sealed value',
    (value) => {
      expect(() => sut.decrypt(value)).toThrow(/not a sealed value/);
    },
  );

  it('should refuse a key that is not 32 bytes, naming it', () => {
    expect(() => new SecretSealer(randomBytes(16), { keyName: 'SECRETS_KEY' })).toThrow(
      /32-byte key \(SECRETS_KEY\)/,
    );
  });

  describe('values sealed before F37', () => {
    it.each(Object.entries(TENANT_AUTH.sealed))(
      "should open tenant-auth's SecretBox value of %p",
      (plain, sealed) => {
        const sealer = SecretSealer.fromSecret(TENANT_AUTH.secret, TENANT_AUTH.salt);

        expect(sealer.decrypt(sealed)).toBe(plain);
      },
    );

    it.each(Object.entries(AUDIT.sealed))(
      "should open audit's signing key sealed as %p",
      (plain, sealed) => {
        const sealer = SecretSealer.fromSecret(AUDIT.secret, AUDIT.salt);

        expect(sealer.decrypt(sealed)).toBe(plain);
      },
    );

    it.each(Object.entries(RELAY.sealed))(
      "should open relay's CredentialCipher value of %p",
      (plain, sealed) => {
        const sealer = new SecretSealer(Buffer.from(RELAY.key, 'base64'));

        expect(sealer.decrypt(sealed)).toBe(plain);
      },
    );

    it('should refuse an old value under another secret or salt', () => {
      const [, sealed] = Object.entries(TENANT_AUTH.sealed)[0];

      expect(() => SecretSealer.fromSecret('another', TENANT_AUTH.salt).decrypt(sealed)).toThrow();
      expect(() =>
        SecretSealer.fromSecret(TENANT_AUTH.secret, AUDIT.salt).decrypt(sealed),
      ).toThrow();
    });

    it("should refuse an old relay value under another key, naming the key's id", () => {
      const [, sealed] = Object.entries(RELAY.sealed)[0];

      expect(() => new SecretSealer(randomBytes(32)).decrypt(sealed)).toThrow(
        /another key \(q1-LXLlD\)/,
      );
    });
  });
});
