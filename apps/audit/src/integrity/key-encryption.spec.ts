import { decryptPrivateKey, encryptPrivateKey } from './key-encryption';

describe(encryptPrivateKey.name, () => {
  const secret = 'a'.repeat(32);

  it('should give the key back when the same secret decrypts it', () => {
    expect(decryptPrivateKey(encryptPrivateKey('-----PEM-----', secret), secret)).toBe(
      '-----PEM-----',
    );
  });

  it('should refuse when another secret decrypts it', () => {
    expect(() =>
      decryptPrivateKey(encryptPrivateKey('-----PEM-----', secret), 'b'.repeat(32)),
    ).toThrow();
  });
});
