import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Server, createServer } from 'node:http';

import { decodeJwt } from 'jose';

import { Database } from '@agp/database';

import { BootstrapResult } from '../src';
import { TENANT_AUTH_DATABASE } from '../src/database/tokens';
import { OAuthClients } from '../src/mcp-clients/oauth-clients';
import { TestBrowser, codeOf } from './sign-in-client';
import {
  BASE_URL,
  TenantAuthHarness,
  bootstrapTenant,
  randomAddress,
  requestToken,
  startTenantAuth,
} from './tenant-auth-harness';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const SERVER_ID = randomUUID();
const RESOURCE = `${BASE_URL}/relay/mcp/${SERVER_ID}`;

/** identity.md I21–I25 (D43): people's own MCP clients at the platform's authorization server. */
describe("people's own MCP clients (the MCP authorization flow)", () => {
  let harness: TenantAuthHarness;
  let admin: BootstrapResult;
  let documents: Server;
  let documentBase: string;
  const served = new Map<string, unknown>();

  beforeAll(async () => {
    harness = await startTenantAuth({
      label: 'mcp_clients',
      env: { CLIENT_METADATA_ALLOW_PRIVATE: 'true' },
    });
    admin = await bootstrapTenant(harness, 'acme');
    documents = createServer((req, res) => {
      const document = served.get(req.url ?? '');
      res.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(document ?? {}));
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    documentBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => documents.close(resolve));
    await harness.close();
  });

  async function register(metadata: Record<string, unknown>) {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/tenant-auth/v1/oauth/register',
      headers: { 'x-forwarded-for': randomAddress() },
      payload: metadata,
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  }

  function authorizeUrl(
    browser: TestBrowser,
    clientId: string,
    extra: Record<string, string> = {},
  ) {
    const params = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'mcp:call offline_access',
      state: 'state-1',
      code_challenge: browser.challenge,
      code_challenge_method: 'S256',
      resource: RESOURCE,
      ...extra,
    });
    return `/tenant-auth/v1/oauth/authorize?${params.toString()}`;
  }

  /** Signs in on the platform's page; answers the consent page that follows. */
  async function signIn(browser: TestBrowser, clientId: string) {
    const page = await browser.get(authorizeUrl(browser, clientId));
    expect(page.status).toBe(200);
    return browser.post('/tenant-auth/v1/oauth/authorize/password', {
      request: TestBrowser.requestIdOf(page.body),
      tenant: 'acme',
      email: admin.email,
      password: admin.password,
    });
  }

  function consentTokenOf(page: string): string {
    return /name="consent_token" value="([^"]+)"/.exec(page)![1];
  }

  async function consent(browser: TestBrowser, page: string, decision: 'allow' | 'deny') {
    return browser.post('/tenant-auth/v1/oauth/authorize/consent', {
      request: TestBrowser.requestIdOf(page),
      consent_token: consentTokenOf(page),
      decision,
    });
  }

  /** A person signs in and allows `clientId`: the browser, and the redirect carrying the code. */
  async function allowed(clientId: string) {
    const browser = new TestBrowser(harness);
    const consentPage = await signIn(browser, clientId);
    const answer = await consent(browser, consentPage.body, 'allow');
    return { browser, consentPage, answer };
  }

  function exchange(
    clientId: string,
    granted: { browser: TestBrowser; answer: { location?: string } },
    extra: Record<string, string> = {},
  ) {
    return requestToken(harness, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: codeOf(granted.answer.location),
      redirect_uri: REDIRECT,
      code_verifier: granted.browser.verifier,
      ...extra,
    });
  }

  async function registeredClient(): Promise<string> {
    const registered = await register({ client_name: 'My IDE', redirect_uris: [REDIRECT] });
    expect(registered.status).toBe(201);
    return registered.body.client_id as string;
  }

  it('should answer its RFC 8414 metadata where the issuer path puts it, naming registration and metadata documents', async () => {
    const sut = await harness.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-authorization-server/tenant-auth/v1',
    });

    expect(sut.statusCode).toBe(200);
    expect(sut.headers['content-type']).toMatch(/^application\/json/);
    expect(sut.json()).toMatchObject({
      issuer: `${BASE_URL}/tenant-auth/v1`,
      registration_endpoint: `${BASE_URL}/tenant-auth/v1/oauth/register`,
      client_id_metadata_document_supported: true,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('should refuse to register a client whose redirect URI is plain http to another host', async () => {
    const sut = await register({ redirect_uris: ['http://evil.example/cb'] });

    expect(sut.status).toBe(400);
    expect(sut.body.error).toBe('invalid_redirect_uri');
  });

  it('should ask for consent after sign-in, then issue a code with iss and a token bound to the relay and the one server', async () => {
    const clientId = await registeredClient();
    const browser = new TestBrowser(harness);

    const consentPage = await signIn(browser, clientId);
    expect(consentPage.status).toBe(200);
    expect(consentPage.body).toContain('My IDE');
    expect(consentPage.body).toContain(RESOURCE);
    const answer = await consent(browser, consentPage.body, 'allow');
    expect(answer.status).toBe(303);
    const location = new URL(answer.location!);
    expect(location.searchParams.get('iss')).toBe(`${BASE_URL}/tenant-auth/v1`);
    expect(location.searchParams.get('state')).toBe('state-1');
    const token = await requestToken(harness, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: codeOf(answer.location),
      redirect_uri: REDIRECT,
      code_verifier: browser.verifier,
      resource: RESOURCE,
    });

    expect(token.status).toBe(200);
    expect(token.body.id_token).toBeUndefined();
    expect(decodeJwt(token.body.access_token as string)).toMatchObject({
      aud: [`${BASE_URL}/relay`, RESOURCE],
      scope: 'mcp:call',
      kind: 'USER',
      tid: admin.tenantId,
    });
    expect(token.body.refresh_token).toEqual(expect.any(String));
  });

  it('should refuse a token request naming another resource than the grant (RFC 8707 invalid_target)', async () => {
    const clientId = await registeredClient();
    const granted = await allowed(clientId);

    const sut = await exchange(clientId, granted, {
      resource: `${BASE_URL}/relay/mcp/${randomUUID()}`,
    });

    expect(sut.status).toBe(400);
    expect(sut.body.error).toBe('invalid_target');
  });

  it('should rotate refresh tokens, keep the server binding, and revoke the family when a rotated one comes back', async () => {
    const clientId = await registeredClient();
    const first = await exchange(clientId, await allowed(clientId));
    const refresh = (token: string) =>
      requestToken(harness, {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: token,
      });

    const second = await refresh(first.body.refresh_token as string);
    expect(second.status).toBe(200);
    expect(decodeJwt(second.body.access_token as string).aud).toEqual([
      `${BASE_URL}/relay`,
      RESOURCE,
    ]);
    const replay = await refresh(first.body.refresh_token as string);
    const afterReplay = await refresh(second.body.refresh_token as string);

    expect(replay.status).toBe(400);
    expect(afterReplay.status).toBe(400);
    expect(afterReplay.body.error).toBe('invalid_grant');
  });

  it('should send access_denied with iss when the person denies, and refuse a consent answer without the page token', async () => {
    const clientId = await registeredClient();
    const browser = new TestBrowser(harness);
    const consentPage = await signIn(browser, clientId);

    const forged = await browser.post('/tenant-auth/v1/oauth/authorize/consent', {
      request: TestBrowser.requestIdOf(consentPage.body),
      consent_token: 'agp_cs_forged',
      decision: 'allow',
    });
    const denied = await consent(browser, consentPage.body, 'deny');

    expect(forged.status).toBe(400);
    expect(denied.status).toBe(303);
    const location = new URL(denied.location!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('iss')).toBe(`${BASE_URL}/tenant-auth/v1`);
  });

  it('should send invalid_target back when an MCP client names no server of this platform', async () => {
    const clientId = await registeredClient();
    const browser = new TestBrowser(harness);

    const sut = await browser.get(
      authorizeUrl(browser, clientId, { resource: 'https://elsewhere.example/mcp' }),
    );

    expect(sut.status).toBe(303);
    expect(new URL(sut.location!).searchParams.get('error')).toBe('invalid_target');
  });

  it('should take a client ID metadata document URL as the client, fetched and validated', async () => {
    const path = `/clients/${randomUUID()}.json`;
    const clientId = `${documentBase}${path}`;
    served.set(path, { client_id: clientId, client_name: 'Doc Client', redirect_uris: [REDIRECT] });

    const granted = await allowed(clientId);
    const token = await exchange(clientId, granted);

    expect(granted.consentPage.body).toContain('Doc Client');
    expect(token.status).toBe(200);
  });

  it('should refuse a metadata document that does not name its own URL as client_id', async () => {
    const path = `/clients/${randomUUID()}.json`;
    served.set(path, { client_id: 'https://other.example/c.json', redirect_uris: [REDIRECT] });
    const browser = new TestBrowser(harness);

    const sut = await browser.get(authorizeUrl(browser, `${documentBase}${path}`));

    expect(sut.status).toBe(400);
    expect(sut.body).toContain('must be the URL it was fetched from');
  });
  it('should prune registrations never used within a day, or idle 90 days without a live refresh token (I27)', async () => {
    const database = harness.app.get<Database>(TENANT_AUTH_DATABASE);
    const sql = (text: string, values: unknown[]) =>
      database.asSystem((tx) => tx.query(text, values));
    const neverUsed = await registeredClient();
    const usedOnce = await registeredClient();
    const idle = await registeredClient();
    const idleWithRefresh = await registeredClient();
    const fresh = await registeredClient();
    await allowed(usedOnce);
    await allowed(idle);
    await exchange(idleWithRefresh, await allowed(idleWithRefresh));
    // Age them as if time had passed: registered two days ago, the idle ones last used long ago.
    await sql(
      `UPDATE tenant_auth.registered_clients SET created_at = now() - interval '200 days'
        WHERE client_id = ANY($1)`,
      [[neverUsed, usedOnce, idle, idleWithRefresh]],
    );
    await sql(
      `UPDATE tenant_auth.registered_clients SET last_used_at = now() - interval '100 days'
        WHERE client_id = ANY($1)`,
      [[idle, idleWithRefresh]],
    );

    const pruned = await harness.app.get(OAuthClients).pruneIdleRegistrations();

    const left: Array<{ client_id: string }> = await sql(
      `SELECT client_id FROM tenant_auth.registered_clients WHERE client_id = ANY($1)`,
      [[neverUsed, usedOnce, idle, idleWithRefresh, fresh]],
    );
    expect(pruned).toBeGreaterThanOrEqual(2);
    expect(left.map((row) => row.client_id).sort()).toEqual(
      [usedOnce, idleWithRefresh, fresh].sort(),
    );
    const browser = new TestBrowser(harness);
    const gone = await browser.get(authorizeUrl(browser, neverUsed));
    expect(gone.status).toBe(400);
  });
});
