import { randomUUID } from 'node:crypto';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpTestServer, eventually, freePort, startMcpTestServer } from '@agp/testing';

import { BootstrapService, McpPlatform, OWN_ADDRESS, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld } from './mcp/mcp-world';
import { exitOf, startConformance } from './mcp-users/conformance-cli';
import { PersonBrowser, pkcePair } from './mcp-users/person-browser';
import { InMemoryOAuthProvider } from './mcp-users/sdk-oauth-provider';

const REDIRECT = 'http://127.0.0.1:1/callback';

interface Person {
  tenant: string;
  tenantId: string;
  email: string;
  password: string;
  userId: string;
  world: McpWorld;
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * D43, issue 33 § 2: a person's own MCP client reaches a governed MCP server through the relay
 * with the MCP authorization flow, discovered and completed by the official SDK by itself; the
 * platform in production's shape (the gateway in front), at its own public address.
 */
describe("people's own MCP clients through the relay (MCP authorization)", () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let person: Person;
  let serverId: string;
  let unsubscribedServerId: string;

  async function newPerson(): Promise<Person> {
    const slug = `t${randomUUID().slice(0, 8)}`;
    const admin = await platform.tenantAuth
      .get(BootstrapService)
      .bootstrap({ slug, email: `ada@${slug}.example` });
    const world = await McpWorld.signIn(platform, { ...admin, tenant: slug });
    const token = await McpWorld.token(platform.baseUrl, {
      grant_type: 'password',
      tenant: slug,
      username: admin.email,
      password: admin.password,
    });
    return { ...admin, tenant: slug, userId: String(claimsOf(token).sub), world };
  }

  /** The whole flow in plain HTTP: registration, PKCE, sign-in, consent, the code for a token. */
  async function tokenFor(who: Person, resource: string): Promise<string> {
    const base = platform.baseUrl;
    const registered = await fetch(`${base}/tenant-auth/v1/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'plain client', redirect_uris: [REDIRECT] }),
    });
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const { verifier, challenge } = pkcePair();
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource,
      state: 's',
    });
    const back = await new PersonBrowser(who, REDIRECT).authorize(
      `${base}/tenant-auth/v1/oauth/authorize?${query.toString()}`,
    );
    const token = await fetch(`${base}/tenant-auth/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: back.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }).toString(),
    });
    return ((await token.json()) as { access_token: string }).access_token;
  }

  function initialize(serverUrl: string, token?: string): Promise<Response> {
    return fetch(serverUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
  }

  beforeAll(async () => {
    platform = await startMcpPlatform('services', { PUBLIC_BASE_URL: OWN_ADDRESS });
    tools = await startMcpTestServer();
    person = await newPerson();
    serverId = await person.world.mcpServer(tools.url);
    unsubscribedServerId = await person.world.mcpServer(tools.url);
    await person.world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'USER_TO_MCP_SERVER',
      sourceId: person.userId,
      targetId: serverId,
      tools: ['echo'],
    });
  });

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  it('should answer metadata where RFC 8414 and RFC 9728 put it, and 404 (not a page) for any other well-known path', async () => {
    const base = platform.baseUrl;

    const authorizationServer = await fetch(
      `${base}/.well-known/oauth-authorization-server/tenant-auth/v1`,
    );
    const resource = await fetch(
      `${base}/.well-known/oauth-protected-resource/relay/mcp/${serverId}`,
    );
    const unknown = await fetch(`${base}/.well-known/change-password`);

    expect(authorizationServer.status).toBe(200);
    expect(authorizationServer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await authorizationServer.json()).toMatchObject({
      issuer: `${base}/tenant-auth/v1`,
      client_id_metadata_document_supported: true,
    });
    expect(await resource.json()).toEqual(
      expect.objectContaining({
        resource: `${base}/relay/mcp/${serverId}`,
        authorization_servers: [`${base}/tenant-auth/v1`],
        scopes_supported: ['mcp:call'],
      }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).not.toMatch(/html/);
  });

  it('should answer a call without a token 401 naming the server metadata and scope in WWW-Authenticate', async () => {
    const sut = await initialize(`${platform.baseUrl}/relay/mcp/${serverId}`);

    expect(sut.status).toBe(401);
    expect(sut.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${platform.baseUrl}/.well-known/oauth-protected-resource/relay/mcp/${serverId}", scope="mcp:call"`,
    );
  });

  it('should let the official SDK client complete the flow by itself and call a granted tool as the person, audited with the person as the party', async () => {
    const serverUrl = new URL(`${platform.baseUrl}/relay/mcp/${serverId}`);
    const provider = new InMemoryOAuthProvider(REDIRECT);
    const first = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
    await expect(new Client({ name: 'ide', version: '1.0.0' }).connect(first)).rejects.toThrow(
      UnauthorizedError,
    );
    const back = await new PersonBrowser(person, REDIRECT).authorize(
      provider.authorizationUrl!.toString(),
    );
    expect(back.searchParams.get('iss')).toBe(`${platform.baseUrl}/tenant-auth/v1`);
    await first.finishAuth(back.searchParams.get('code')!);
    const correlationId = randomUUID();
    const client = new Client({ name: 'ide', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(serverUrl, {
        authProvider: provider,
        requestInit: { headers: { 'x-correlation-id': correlationId } },
      }),
    );

    const listed = await client.listTools();
    const called = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    await client.close();

    expect(listed.tools.map((t) => t.name)).toEqual(['echo']);
    expect(JSON.stringify(called.content)).toContain('hello');
    expect(claimsOf(provider.tokens()!.access_token).aud).toEqual([
      `${platform.baseUrl}/relay`,
      serverUrl.toString(),
    ]);
    const trail = await person.world.trace(
      correlationId,
      (items) => items.filter((e) => (e.details as Json | null)?.toolName === 'echo').length === 2,
    );
    const hops = trail.filter(
      (e) => e.eventType === 'COMMUNICATION_AUDIT' && (e.details as Json).toolName === 'echo',
    );
    expect(hops.map((e) => e.actor)).toEqual([
      expect.objectContaining({ type: 'USER', id: person.userId }),
      expect.objectContaining({ type: 'USER', id: person.userId }),
    ]);
  });

  it('should refuse a person token on another server path 401, naming that server metadata', async () => {
    const token = await tokenFor(person, `${platform.baseUrl}/relay/mcp/${serverId}`);

    const sut = await initialize(`${platform.baseUrl}/relay/mcp/${unsubscribedServerId}`, token);

    expect(sut.status).toBe(401);
    expect(sut.headers.get('www-authenticate')).toContain(
      `/.well-known/oauth-protected-resource/relay/mcp/${unsubscribedServerId}"`,
    );
    expect(sut.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('should refuse a person with no USER_TO_MCP_SERVER subscription 403', async () => {
    const token = await tokenFor(person, `${platform.baseUrl}/relay/mcp/${unsubscribedServerId}`);

    const sut = await initialize(`${platform.baseUrl}/relay/mcp/${unsubscribedServerId}`, token);

    expect(sut.status).toBe(403);
    expect(JSON.stringify(await sut.json())).toContain('is not subscribed');
  });

  it("should refuse a token of another tenant's person for this tenant's server", async () => {
    const stranger = await newPerson();
    const token = await tokenFor(stranger, `${platform.baseUrl}/relay/mcp/${serverId}`);
    const before = tools.requestCount();

    const sut = await initialize(`${platform.baseUrl}/relay/mcp/${serverId}`, token);

    expect(sut.status).toBe(404);
    expect(tools.requestCount()).toBe(before);
  });

  it('should refuse a person with -31005 while a kill switch on the MCP server is engaged, as an agent would be', async () => {
    const resource = `${platform.baseUrl}/relay/mcp/${serverId}`;
    const token = await tokenFor(person, resource);
    const engaged = await person.world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
      scope: 'MCP_SERVER',
      targetId: serverId,
      reason: 'person test switch',
    });
    try {
      const sut = await eventually(async () => {
        const answer = (await (await initialize(resource, token)).json()) as Json;
        expect((answer.error as Json | undefined)?.code).toBe(-31005);
        return answer;
      });

      expect(JSON.stringify(sut)).toContain('person test switch');
    } finally {
      await person.world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
    }
  });

  it('should pass the official MCP conformance suite authorization-server scenarios (metadata, authorization code grant)', async () => {
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/callback`;
    const registered = await fetch(`${platform.baseUrl}/tenant-auth/v1/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [callback] }),
    });
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const issuer = `${platform.baseUrl}/tenant-auth/v1`;
    const suite = startConformance([
      'authorization',
      '--url',
      issuer,
      '--client-id',
      clientId,
      '--resource',
      `${platform.baseUrl}/relay/mcp/${serverId}`,
      '--port',
      String(port),
    ]);
    try {
      const authorizationUrl = await eventually(() => {
        const line = suite
          .output()
          .split('\n')
          .find((l) => l.startsWith(`${issuer}/oauth/authorize?`));
        expect(line).toBeDefined();
        return line!;
      }, 600);
      const back = await new PersonBrowser(person, callback).authorize(authorizationUrl);
      await fetch(back);

      const code = await exitOf(suite.child);

      expect({ code, output: suite.output() }).toEqual({ code: 0, output: expect.any(String) });
      expect(suite.output()).toMatch(
        /✓ authorization-server-metadata-endpoint: [1-9]\d* passed, 0 failed/,
      );
      expect(suite.output()).toMatch(/✓ authorization-code-grant: [1-9]\d* passed, 0 failed/);
    } finally {
      suite.child.kill();
    }
  });
});
