import { randomBytes } from 'node:crypto';

import { CredentialCipher } from './credential-cipher';

describe(CredentialCipher.name, () => {
  const key = randomBytes(32);
  const sut = new CredentialCipher(key);

  it('should give back the plain text when it decrypts what it encrypted', () => {
    const plain = 'sk-live-Ünïcode-🔑-' + 'x'.repeat(4_000);

    expect(sut.decrypt(sut.encrypt(plain))).toBe(plain);
    expect(sut.decrypt(sut.encrypt(''))).toBe('');
  });

  it('should seal the same text differently each time and never contain it', () => {
    const first = sut.encrypt('top-secret-token');
    const second = sut.encrypt('top-secret-token');

    expect(first).not.toBe(second);
    expect(first).not.toContain('top-secret');
    expect(first).toMatch(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('should refuse when the value was sealed with another key', () => {
    const other = new CredentialCipher(randomBytes(32));

    expect(() => other.decrypt(sut.encrypt('secret'))).toThrow(/another key/);
  });

  it('should refuse when the sealed value was altered', () => {
    const parts = sut.encrypt('secret').split('.');
    const data = Buffer.from(parts[4], 'base64url');
    data[0] ^= 1;
    const altered = [...parts.slice(0, 4), data.toString('base64url')].join('.');

    expect(() => sut.decrypt(altered)).toThrow();
  });

  it.each(['', 'secret', 'v2.a.b.c.d', 'v1.a.b', 'v1.a.b.c.d.e'])(
    'should refuse %p when it is not a sealed credential',
    (value) => {
      expect(() => sut.decrypt(value)).toThrow(/not a sealed credential/);
    },
  );

  it('should refuse a key that is not 32 bytes', () => {
    expect(() => new CredentialCipher(randomBytes(16))).toThrow(/32-byte/);
  });
});
