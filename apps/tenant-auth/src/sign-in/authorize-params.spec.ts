import { browserClients } from './browser-clients';
import { parseAuthorize } from './authorize-params';
import { TenantAuthEnv } from '../config/tenant-auth.env';

const clients = browserClients(
  Object.assign(new TenantAuthEnv(), {
    PUBLIC_BASE_URL: 'https://agp.example.com',
    CONSOLE_ORIGINS: 'http://localhost:5173',
  }),
);
const valid = {
  client_id: 'agp-console',
  redirect_uri: 'https://agp.example.com/auth/callback',
  response_type: 'code',
  scope: 'openid svc:api',
  state: 's',
  nonce: 'n',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
};

describe(parseAuthorize.name, () => {
  it('should accept a complete request to a registered redirect URI', () => {
    const sut = parseAuthorize(valid, clients);

    expect(sut).toMatchObject({
      kind: 'ok',
      params: { clientId: 'agp-console', scope: 'openid svc:api' },
    });
  });

  it('should accept the redirect URI of a further console origin', () => {
    const sut = parseAuthorize(
      { ...valid, redirect_uri: 'http://localhost:5173/auth/callback' },
      clients,
    );

    expect(sut.kind).toBe('ok');
  });

  it.each([
    ['an unknown client', { client_id: 'other' }],
    [
      'a redirect URI with another path',
      { redirect_uri: 'https://agp.example.com/auth/callback2' },
    ],
    ['a redirect URI with a query', { redirect_uri: 'https://agp.example.com/auth/callback?x=1' }],
    ['a redirect URI in another case', { redirect_uri: 'https://AGP.example.com/auth/callback' }],
    ['a repeated redirect URI', { redirect_uri: ['https://agp.example.com/auth/callback', 'x'] }],
  ])('should show an error page, never redirect, for %s', (_name, change) => {
    const sut = parseAuthorize({ ...valid, ...change }, clients);

    expect(sut.kind).toBe('page-error');
  });

  it.each([
    ['no code_challenge', { code_challenge: '' }, 'invalid_request'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['the implicit flow', { response_type: 'token' }, 'unsupported_response_type'],
    ['no openid scope', { scope: 'svc:api' }, 'invalid_scope'],
    ['an unknown scope', { scope: 'openid admin' }, 'invalid_scope'],
    ['no nonce', { nonce: '' }, 'invalid_request'],
    ['an unknown prompt', { prompt: 'consent' }, 'invalid_request'],
  ])('should send the client %s as an error with its state', (_name, change, error) => {
    const sut = parseAuthorize({ ...valid, ...change }, clients);

    expect(sut).toMatchObject({ kind: 'redirect-error', error, state: 's' });
  });
});
