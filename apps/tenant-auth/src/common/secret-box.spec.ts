import { SecretBox } from './secret-box';

describe(SecretBox.name, () => {
  const sut = new SecretBox('x'.repeat(32));

  it('should give back the plaintext when sealed and opened with the same secret', () => {
    const sealed = sut.seal('private key');
    expect(sealed).not.toContain('private key');
    expect(sut.open(sealed)).toBe('private key');
  });

  it('should refuse to open when the secret differs or the value was tampered with', () => {
    const sealed = sut.seal('private key');
    expect(() => new SecretBox('y'.repeat(32)).open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => sut.open(parts.join('.'))).toThrow();
  });
});
