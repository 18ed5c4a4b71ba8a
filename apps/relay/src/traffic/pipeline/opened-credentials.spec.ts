import { randomBytes } from 'node:crypto';

import { CredentialCipher } from '../../mcp-servers/credential-cipher';
import { OpenedCredentials } from './opened-credentials';

describe('OpenedCredentials', () => {
  const cipher = new CredentialCipher(randomBytes(32));

  it('should open a sealed value once and answer it again from memory', () => {
    const sealed = cipher.encrypt('s3cret');
    const decrypt = jest.spyOn(cipher, 'decrypt');
    const sut = new OpenedCredentials(cipher);

    expect(sut.open(sealed)).toBe('s3cret');
    expect(sut.open(sealed)).toBe('s3cret');
    expect(decrypt).toHaveBeenCalledTimes(1);
  });

  it('should open a new credential (a new sealed value) and keep refusing one that cannot be opened', () => {
    const sut = new OpenedCredentials(cipher);
    sut.open(cipher.encrypt('old'));

    expect(sut.open(cipher.encrypt('new'))).toBe('new');
    expect(() => sut.open('v1.x.y.z.w')).toThrow();
    expect(() => sut.open('v1.x.y.z.w')).toThrow();
  });
});
