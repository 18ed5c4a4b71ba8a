import {
  hashClientSecret,
  hashPassword,
  newClientSecret,
  verifyClientSecret,
  verifyPassword,
} from './credentials';

describe('credentials', () => {
  it('should verify a password against its scrypt hash and refuse another', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('wrong horse', stored)).resolves.toBe(false);
  });

  it('should refuse any password when no hash is stored', async () => {
    await expect(verifyPassword('', null)).resolves.toBe(false);
  });

  it('should verify a client secret against its hash and refuse another', () => {
    const secret = newClientSecret();
    const stored = hashClientSecret(secret);
    expect(verifyClientSecret(secret, stored)).toBe(true);
    expect(verifyClientSecret(newClientSecret(), stored)).toBe(false);
    expect(verifyClientSecret(secret, undefined)).toBe(false);
  });
});
