import { isSecretField } from './redact';

describe(isSecretField.name, () => {
  it.each([
    'secret',
    'clientSecret',
    'client_secret',
    'webhookSecret',
    'password',
    'passwordHash',
    'token',
    'accessToken',
    'bearer-token',
    'credentials',
    'apiKey',
    'api_key',
    'X-Api-Key',
    'privateKey',
    'signingKey',
    'Authorization',
    'cookie',
    'passphrase',
  ])('should call %s a secret', (name) => {
    expect(isSecretField(name)).toBe(true);
  });

  it.each(['name', 'maxTokens', 'tokensPerMinute', 'keyId', 'description', 'url', 'issuer'])(
    'should not call %s a secret',
    (name) => {
      expect(isSecretField(name)).toBe(false);
    },
  );
});
