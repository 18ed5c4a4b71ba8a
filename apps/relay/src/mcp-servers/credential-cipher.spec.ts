import { randomBytes } from 'node:crypto';

import { CredentialCipher } from './credential-cipher';

describe(CredentialCipher.name, () => {
  const key = randomBytes(32);

  it('should open on one replica what another sealed under the same SECRETS_KEY', () => {
    const sealed = new CredentialCipher(key).encrypt('sk-live-123');

    expect(sealed).toMatch(/^v2\./);
    expect(new CredentialCipher(Buffer.from(key)).decrypt(sealed)).toBe('sk-live-123');
  });

  it('should name SECRETS_KEY when a value was sealed under another key, or the key is not 32 bytes', () => {
    const sealed = new CredentialCipher(randomBytes(32)).encrypt('secret');

    expect(() => new CredentialCipher(key).decrypt(sealed)).toThrow(/another key.*SECRETS_KEY/);
    expect(() => new CredentialCipher(randomBytes(16))).toThrow(/32-byte key \(SECRETS_KEY\)/);
  });
});
