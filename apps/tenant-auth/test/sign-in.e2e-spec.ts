import { TestDnsServer, TestIdentityProvider } from '@agp/testing';
import { decodeJwt } from 'jose';

import { BootstrapResult } from '../src';
import { CONSOLE_REDIRECT, TestBrowser, codeOf } from './sign-in-client';
import {
  Api,
  TenantAuthHarness,
  apiAs,
  bootstrapTenant,
  passwordToken,
  requestToken,
  startTenantAuth,
} from './tenant-auth-harness';

/** identity.md I14–I17: browser sign-in, the OpenID Connect way. */
describe('browser sign-in (OpenID Connect)', () => {
  let harness: TenantAuthHarness;
  let dns: TestDnsServer;
  let admin: BootstrapResult;
  let api: Api;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    harness = await startTenantAuth({ label: 'sign_in', env: { DNS_RESOLVER: dns.address } });
    admin = await bootstrapTenant(harness, 'acme');
    api = apiAs(harness, await passwordToken(harness, admin));
  });

  afterAll(async () => {
    await harness.close();
    await dns.stop();
  });

  async function signInLocally(browser: TestBrowser, extra: Record<string, string> = {}) {
    const page = await browser.get(browser.authorizeUrl(extra));
    return browser.post('/tenant-auth/v1/oauth/authorize/password', {
      request: TestBrowser.requestIdOf(page.body),
      tenant: 'acme',
      email: admin.email,
      password: admin.password,
    });
  }

  function exchange(browser: TestBrowser, code: string, verifier = browser.verifier) {
    return requestToken(harness, {
      grant_type: 'authorization_code',
      client_id: 'agp-console',
      code,
      redirect_uri: CONSOLE_REDIRECT,
      code_verifier: verifier,
    });
  }

  function refresh(token: string) {
    return requestToken(harness, {
      grant_type: 'refresh_token',
      client_id: 'agp-console',
      refresh_token: token,
    });
  }

  describe('local users', () => {
    it('should show a script-free sign-in page with HttpOnly SameSite cookies when a browser starts a sign-in', async () => {
      const browser = new TestBrowser(harness);

      const page = await browser.get(browser.authorizeUrl());

      expect(page.status).toBe(200);
      expect(page.body).toContain(
        '<form method="post" action="/tenant-auth/v1/oauth/authorize/password">',
      );
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.body).not.toContain('<script');
      expect(page.setCookies[0]).toMatch(
        /^agp_authz=[0-9a-f-]{36}; Path=\/tenant-auth\/v1; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
      );
    });

    it('should give a code, then tokens the services accept, when the password is right and the PKCE verifier matches', async () => {
      const browser = new TestBrowser(harness);

      const signedIn = await signInLocally(browser);

      expect(signedIn.status).toBe(303);
      const back = new URL(signedIn.location!);
      expect(`${back.origin}${back.pathname}`).toBe(CONSOLE_REDIRECT);
      expect(back.searchParams.get('state')).toBe('state-1');
      expect(back.searchParams.get('iss')).toBe('http://agp.test/tenant-auth/v1');
      expect(signedIn.setCookies.find((c) => c.startsWith('agp_session='))).toMatch(
        /HttpOnly; SameSite=Lax; Secure$/,
      );
      const tokens = await exchange(browser, codeOf(signedIn.location));
      expect(tokens.body).toMatchObject({ token_type: 'Bearer' });
      expect(tokens.status).toBe(200);
      expect(tokens.body).toMatchObject({
        token_type: 'Bearer',
        scope: 'openid svc:api offline_access',
      });
      const access = decodeJwt(tokens.body.access_token as string);
      expect(access).toMatchObject({
        aud: 'http://agp.test',
        kind: 'USER',
        scope: 'svc:api',
        email: admin.email,
      });
      const id = decodeJwt(tokens.body.id_token as string);
      expect(id).toMatchObject({
        aud: 'agp-console',
        nonce: 'nonce-1',
        sub: access.sub,
        tid: access.tid,
      });
      expect(tokens.body.refresh_token).toMatch(/^agp_rt_/);
      const permissions = await apiAs(harness, tokens.body.access_token as string).get(
        '/permissions',
      );
      expect(permissions.status).toBe(200);
    });

    it('should refuse the code when the PKCE verifier is wrong, and a code used twice revokes what it gave', async () => {
      const browser = new TestBrowser(harness);
      const code = codeOf((await signInLocally(browser)).location);

      const wrong = await exchange(browser, code, 'x'.repeat(43));
      const other = new TestBrowser(harness);
      const code2 = codeOf((await signInLocally(other)).location);
      const first = await exchange(other, code2);
      const replay = await exchange(other, code2);

      expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
      expect(first.status).toBe(200);
      expect(replay.body).toMatchObject({ error: 'invalid_grant' });
      expect((await refresh(first.body.refresh_token as string)).body).toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('should rotate the refresh token on every use and revoke the family when an old one comes back', async () => {
      const browser = new TestBrowser(harness);
      const tokens = await exchange(browser, codeOf((await signInLocally(browser)).location));

      const second = await refresh(tokens.body.refresh_token as string);
      const third = await refresh(second.body.refresh_token as string);
      const replayed = await refresh(tokens.body.refresh_token as string);
      const afterReplay = await refresh(third.body.refresh_token as string);

      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(tokens.body.refresh_token);
      expect(third.status).toBe(200);
      expect(replayed.body).toMatchObject({ error: 'invalid_grant' });
      expect(afterReplay.body).toMatchObject({ error: 'invalid_grant' });
    });

    it('should show the page again with an error and no code when the password is wrong', async () => {
      const browser = new TestBrowser(harness);
      const page = await browser.get(browser.authorizeUrl());

      const answer = await browser.post('/tenant-auth/v1/oauth/authorize/password', {
        request: TestBrowser.requestIdOf(page.body),
        tenant: 'acme',
        email: admin.email,
        password: 'wrong-password',
      });

      expect(answer.status).toBe(401);
      expect(answer.body).toContain('The organisation, e-mail or password is wrong.');
      expect(answer.location).toBeUndefined();
    });

    it('should not finish a sign-in started in another browser (login CSRF)', async () => {
      const victim = new TestBrowser(harness);
      const attacker = new TestBrowser(harness);
      const page = await attacker.get(attacker.authorizeUrl());

      const answer = await victim.post('/tenant-auth/v1/oauth/authorize/password', {
        request: TestBrowser.requestIdOf(page.body),
        tenant: 'acme',
        email: admin.email,
        password: admin.password,
      });

      expect(answer.status).toBe(400);
      expect(answer.location).toBeUndefined();
    });

    it('should never redirect to a redirect URI that is not registered exactly', async () => {
      const browser = new TestBrowser(harness);

      const slash = await browser.get(
        browser.authorizeUrl({ redirect_uri: `${CONSOLE_REDIRECT}/` }),
      );
      const evil = await browser.get(
        browser.authorizeUrl({ redirect_uri: 'https://evil.example/auth/callback' }),
      );
      const client = await browser.get(browser.authorizeUrl({ client_id: 'someone-else' }));

      for (const answer of [slash, evil, client]) {
        expect(answer.status).toBe(400);
        expect(answer.location).toBeUndefined();
      }
    });

    it('should send the client an error when PKCE or the nonce is missing', async () => {
      const browser = new TestBrowser(harness);

      const plain = await browser.get(browser.authorizeUrl({ code_challenge_method: 'plain' }));
      const noNonce = await browser.get(browser.authorizeUrl({ nonce: '' }));

      expect(new URL(plain.location!).searchParams.get('error')).toBe('invalid_request');
      expect(new URL(plain.location!).searchParams.get('state')).toBe('state-1');
      expect(new URL(noNonce.location!).searchParams.get('error')).toBe('invalid_request');
    });

    it('should sign a returning browser in at once, and sign-out ends its session and refresh tokens', async () => {
      const browser = new TestBrowser(harness);
      const tokens = await exchange(browser, codeOf((await signInLocally(browser)).location));

      const silent = await browser.get(browser.authorizeUrl({ prompt: 'none', state: 'again' }));
      const out = await browser.get(
        '/tenant-auth/v1/oauth/logout?client_id=agp-console&post_logout_redirect_uri=' +
          encodeURIComponent('http://agp.test/'),
      );
      const afterOut = await browser.get(browser.authorizeUrl({ prompt: 'none' }));

      expect(new URL(silent.location!).searchParams.get('code')).toBeTruthy();
      expect(new URL(silent.location!).searchParams.get('state')).toBe('again');
      expect(out.status).toBe(303);
      expect(out.location).toBe('http://agp.test/');
      expect(out.setCookies[0]).toMatch(/^agp_session=; .*Max-Age=0/);
      expect(new URL(afterOut.location!).searchParams.get('error')).toBe('login_required');
      expect((await refresh(tokens.body.refresh_token as string)).body).toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('should advertise the browser endpoints in the discovery document', async () => {
      const answer = await harness.app.inject({
        url: '/tenant-auth/v1/.well-known/openid-configuration',
      });

      expect(answer.json()).toMatchObject({
        authorization_endpoint: 'http://agp.test/tenant-auth/v1/oauth/authorize',
        end_session_endpoint: 'http://agp.test/tenant-auth/v1/oauth/logout',
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
      });
    });
  });

  describe("a tenant's identity provider", () => {
    let idp: TestIdentityProvider;
    let providerId: string;
    let groupId: string;

    beforeAll(async () => {
      const role = await api.post('/roles', {
        name: 'Auditors',
        permissions: [{ entity: 'AUDIT', permission: 'READ' }],
      });
      groupId = (await api.post('/groups', { name: 'Security team', roleIds: [role.body.id] })).body
        .id;
      const created = await api.post('/identity-providers', {
        alias: 'okta',
        displayName: 'Okta',
        enabled: true,
        config: { type: 'OKTA', clientId: 'agp', clientSecret: 'idp-secret-0123456789' },
        groupMappings: { 'sec-team': [groupId] },
        emailDomains: ['example.org'],
      });
      providerId = created.body.id;
      idp = await TestIdentityProvider.start(
        'agp',
        'idp-secret-0123456789',
        created.body.redirectUri,
      );
      await api.patch(`/identity-providers/${providerId}`, { config: { issuer: idp.issuer } });
      const domain = created.body.emailDomains[0];
      dns.txt.set(domain.expectedTxtRecordName, [domain.expectedTxtRecordValue]);
      await api.post(`/identity-providers/${providerId}/email-domains/example.org/verify`);
    });

    afterAll(async () => {
      await idp.stop();
    });

    async function signInThroughIdp(email: string) {
      const browser = new TestBrowser(harness);
      const page = await browser.get(browser.authorizeUrl());
      const toIdp = await browser.post('/tenant-auth/v1/oauth/authorize/federated', {
        request: TestBrowser.requestIdOf(page.body),
        tenant: 'acme',
        email,
      });
      return { browser, toIdp };
    }

    it('should create the user from the claims, apply the group mapping and answer tokens with its roles', async () => {
      await idp.signInAs({
        sub: 'u-1',
        email: 'alice@example.org',
        email_verified: true,
        name: 'Alice Liddell',
        groups: ['sec-team'],
      });
      const { browser, toIdp } = await signInThroughIdp('alice@example.org');

      expect(toIdp.status).toBe(303);
      const authorize = new URL(toIdp.location!);
      expect(authorize.origin).toBe(idp.issuer);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('state')).toBeTruthy();
      expect(authorize.searchParams.get('nonce')).toBeTruthy();
      const callback = new URL(await idp.follow(toIdp.location!));
      const back = await browser.get(`${callback.pathname}${callback.search}`);
      expect(back.status).toBe(303);
      const tokens = await exchange(browser, codeOf(back.location));
      expect(tokens.status).toBe(200);
      const access = decodeJwt(tokens.body.access_token as string);
      expect(access).toMatchObject({
        email: 'alice@example.org',
        name: 'Alice Liddell',
        perms: ['AUDIT:READ'],
      });
      const members = await api.get(`/groups/${groupId}/members`);
      expect((members.body.items as Array<{ email: string }>).map((m) => m.email)).toContain(
        'alice@example.org',
      );
    });

    it('should take the user out of a mapped group when the provider no longer lists it', async () => {
      await idp.signInAs({
        sub: 'u-1',
        email: 'alice@example.org',
        email_verified: true,
        name: 'Alice L.',
        groups: [],
      });
      const { browser, toIdp } = await signInThroughIdp('alice@example.org');
      const callback = new URL(await idp.follow(toIdp.location!));

      const back = await browser.get(`${callback.pathname}${callback.search}`);

      const tokens = await exchange(browser, codeOf(back.location));
      expect(decodeJwt(tokens.body.access_token as string)).toMatchObject({
        name: 'Alice L.',
        perms: [],
      });
      const members = await api.get(`/groups/${groupId}/members`);
      expect((members.body.items as Array<{ email: string }>).map((m) => m.email)).not.toContain(
        'alice@example.org',
      );
    });

    it('should refuse an address whose domain the tenant has not verified, at the start and on return', async () => {
      const { toIdp } = await signInThroughIdp('mallory@elsewhere.example');
      await idp.signInAs({
        sub: 'u-2',
        email: 'mallory@elsewhere.example',
        email_verified: true,
        name: 'M',
        groups: ['sec-team'],
      });
      const { browser, toIdp: started } = await signInThroughIdp('someone@example.org');
      const callback = new URL(await idp.follow(started.location!));

      const back = await browser.get(`${callback.pathname}${callback.search}`);

      expect(toIdp.status).toBe(400);
      expect(toIdp.body).toContain('no identity provider for that e-mail address');
      expect(back.status).toBe(403);
      expect(back.location).toBeUndefined();
      expect((await api.get('/users?email=mallory@elsewhere.example')).body.total).toBe(0);
    });

    it('should refuse a callback whose state was not issued to this browser', async () => {
      await idp.signInAs({
        sub: 'u-1',
        email: 'alice@example.org',
        email_verified: true,
        name: 'Alice',
        groups: [],
      });
      const { toIdp } = await signInThroughIdp('alice@example.org');
      const callback = new URL(await idp.follow(toIdp.location!));
      const stranger = new TestBrowser(harness);

      const back = await stranger.get(`${callback.pathname}${callback.search}`);

      expect(back.status).toBe(400);
      expect(back.location).toBeUndefined();
    });
  });
});
