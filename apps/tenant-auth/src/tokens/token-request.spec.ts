import { OAuthError } from './oauth.error';
import { clientCredentialsOf, paramsOf } from './token-request';

describe(clientCredentialsOf.name, () => {
  const basic = (id: string, secret: string): string =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  it('should read the client from HTTP Basic when the header is sent', () => {
    expect(clientCredentialsOf({}, basic('id-1', 's:e/c'))).toEqual({
      clientId: 'id-1',
      clientSecret: 's:e/c',
    });
  });

  it('should read the client from the body when there is no Basic header', () => {
    expect(clientCredentialsOf({ client_id: 'a', client_secret: 'b' }, undefined)).toEqual({
      clientId: 'a',
      clientSecret: 'b',
    });
  });

  it('should refuse with invalid_request when both methods are used', () => {
    expect(() => clientCredentialsOf({ client_secret: 'b' }, basic('a', 'b'))).toThrow(
      expect.objectContaining({ error: 'invalid_request' }),
    );
  });

  it('should refuse with invalid_request when a parameter is missing', () => {
    expect(() => clientCredentialsOf({ client_id: 'a' }, undefined)).toThrow(OAuthError);
  });
});

describe(paramsOf.name, () => {
  it('should refuse a body that is not an object or repeats a parameter', () => {
    expect(() => paramsOf('grant_type=x')).toThrow(OAuthError);
    expect(() => paramsOf({ grant_type: ['a', 'b'] })).toThrow(OAuthError);
    expect(paramsOf({ grant_type: 'password' })).toEqual({ grant_type: 'password' });
  });
});
