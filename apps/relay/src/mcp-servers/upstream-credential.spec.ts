import { upstreamCredentialHeader } from './upstream-credential';

describe(upstreamCredentialHeader.name, () => {
  it('should send a bearer token in Authorization when no header is named', () => {
    expect(upstreamCredentialHeader(undefined, 'tok-123')).toEqual({
      header: 'Authorization',
      value: 'Bearer tok-123',
    });
  });

  it('should keep a value that names its scheme when it goes in Authorization', () => {
    expect(upstreamCredentialHeader('authorization', 'Basic dXNlcjpwYXNz').value).toBe(
      'Basic dXNlcjpwYXNz',
    );
    expect(upstreamCredentialHeader(undefined, 'Bearer tok').value).toBe('Bearer tok');
  });

  it('should send the raw value when the server wants another header', () => {
    expect(upstreamCredentialHeader('X-Api-Key', 'k-1')).toEqual({
      header: 'X-Api-Key',
      value: 'k-1',
    });
  });
});
