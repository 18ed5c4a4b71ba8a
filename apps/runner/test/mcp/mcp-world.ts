import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { BootstrapService, McpPlatform } from './mcp-platform';

export type Json = Record<string, unknown>;

export interface ApiAnswer<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestAgent {
  id: string;
  name: string;
  /** A token from the real token endpoint with scope `mcp:call` (audience `{base}/relay`, D8). */
  mcpToken: string;
  /** The same agent's `svc:api` token: the wrong audience on the MCP path (D8). */
  apiToken: string;
}

/**
 * One tenant of a running platform, driven as its administrator and agents would drive it: every
 * call goes through the public base URL (the gateway, or the one process) with tokens from the
 * real token endpoint.
 */
export class McpWorld {
  private constructor(
    readonly platform: Pick<McpPlatform, 'baseUrl'>,
    readonly tenant: string,
    private readonly adminToken: string,
    readonly tenantId: string,
  ) {}

  static async create(
    platform: McpPlatform,
    slug = `t${randomUUID().slice(0, 8)}`,
  ): Promise<McpWorld> {
    const admin = await platform.tenantAuth
      .get(BootstrapService)
      .bootstrap({ slug, email: `admin@${slug}.example` });
    const token = await McpWorld.token(platform.baseUrl, {
      grant_type: 'password',
      tenant: slug,
      username: admin.email,
      password: admin.password,
    });
    return new McpWorld(platform, slug, token, admin.tenantId);
  }

  /**
   * A tenant that already exists, driven by its administrator's password as the README says
   * (`npm start`'s `default` tenant, whose credentials are in DATA_DIR/bootstrap.json).
   */
  static async signIn(
    platform: Pick<McpPlatform, 'baseUrl'>,
    admin: { tenant: string; tenantId: string; email: string; password: string },
  ): Promise<McpWorld> {
    const token = await McpWorld.token(platform.baseUrl, {
      grant_type: 'password',
      tenant: admin.tenant,
      username: admin.email,
      password: admin.password,
    });
    return new McpWorld(platform, admin.tenant, token, admin.tenantId);
  }

  static async token(baseUrl: string, form: Record<string, string>): Promise<string> {
    const response = await fetch(`${baseUrl}/tenant-auth/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const body = (await response.json()) as Json;
    if (response.status !== 200) {
      throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
    }
    return String(body.access_token);
  }

  /** `/relay/mcp/{mcpServerId}` at the public base URL. */
  mcpUrl(mcpServerId: string): string {
    return `${this.platform.baseUrl}/relay/mcp/${mcpServerId}`;
  }

  async api<T = Json>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiAnswer<T>> {
    // A path on the platform, or a whole URL (another relay replica, reached directly).
    const url = /^https?:\/\//.test(path) ? path : `${this.platform.baseUrl}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    const isJson = /json/.test(response.headers.get('content-type') ?? 'json');
    return {
      status: response.status,
      // A CSV export is answered as the text it is.
      body: (text && isJson ? JSON.parse(text) : text || undefined) as T,
      headers: response.headers,
    };
  }

  /** Like api(), but any answer other than `expected` fails the test with the body in the message. */
  async ok<T = Json>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    expected = method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200,
  ): Promise<T> {
    const answer = await this.api<T>(method, path, body);
    if (answer.status !== expected) {
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  /** An agent registered in tenant-auth (D30), known to the relay once its AGENT_LIFECYCLE arrived. */
  async agent(name = `agent-${randomUUID().slice(0, 8)}`): Promise<TestAgent> {
    const created = await this.ok<{ id: string; clientSecret: string }>(
      'POST',
      '/tenant-auth/v1/agents',
      { name },
    );
    await eventually(async () => {
      expect((await this.api('GET', `/relay/v1/agents/${created.id}`)).status).toBe(200);
    });
    const form = {
      grant_type: 'client_credentials',
      client_id: created.id,
      client_secret: created.clientSecret,
    };
    return {
      id: created.id,
      name,
      mcpToken: await McpWorld.token(this.platform.baseUrl, { ...form, scope: 'mcp:call' }),
      apiToken: await McpWorld.token(this.platform.baseUrl, { ...form, scope: 'svc:api' }),
    };
  }

  /** D32, D37: an MCP server the relay can reach. */
  async mcpServer(url: string, extra: Json = {}): Promise<string> {
    const server = await this.ok<{ id: string }>('POST', '/relay/v1/mcp-servers', {
      name: `tools-${randomUUID().slice(0, 8)}`,
      url,
      transport: 'STREAMABLE_HTTP',
      ...extra,
    });
    return server.id;
  }

  /** D32: the agent may call the server; `tools` is the grant (absent: every tool). */
  async subscribe(agentId: string, mcpServerId: string, tools?: string[] | null): Promise<string> {
    const subscription = await this.ok<{ id: string }>('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: mcpServerId,
      ...(tools !== undefined ? { tools } : {}),
    });
    return subscription.id;
  }

  /** A Rego module as a policy group with one version, bound to one agent's traffic (D22, D23). */
  async bindToAgent(agentId: string, regoSource: string, data: Json = {}): Promise<string> {
    const group = await this.ok<{ id: string }>('POST', '/relay/v1/policy-groups', {
      name: `group-${randomUUID().slice(0, 8)}`,
      data,
    });
    await this.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, { regoSource });
    await this.ok('POST', '/relay/v1/policy-bindings', {
      groupId: group.id,
      bindingLevel: 'AGENT',
      agentId,
    });
    return group.id;
  }

  /**
   * `GET /audit/v1/traces/{correlationId}`: the hops of one conversation, once the audit trail
   * holds at least `atLeast` of them, or `until` says the ones a test waits for have arrived
   * (events reach the trail asynchronously, in no promised order).
   */
  async trace(
    correlationId: string,
    until: number | ((items: Json[]) => boolean),
  ): Promise<Json[]> {
    return eventually(async () => {
      const answer = await this.api<{ items?: Json[] } | Json[]>(
        'GET',
        `/audit/v1/traces/${correlationId}`,
      );
      expect(answer.status).toBe(200);
      const items = Array.isArray(answer.body) ? answer.body : (answer.body.items ?? []);
      expect(typeof until === 'number' ? items.length >= until : until(items)).toBe(true);
      return items;
    });
  }
}
