import { randomUUID } from 'node:crypto';

import { BootstrapService, McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

type Json = Record<string, unknown>;

const RUNS = 200;
const SCRIPTS = 8;

/**
 * Issue 30 § 2, read your own writes across services, as a script would drive the platform: an
 * agent and a user created in tenant-auth are configured in the relay by the very next calls, with
 * no wait between them, in both of D2's shapes. In the services shape every other run goes to a
 * second relay replica reached directly, so neither replica's knowledge is the other's.
 */
describe.each<PlatformMode>(['services', 'embedded'])('read your own writes (%s)', (mode) => {
  let platform: McpPlatform;
  let token: string;
  let relays: string[];

  async function call(base: string, method: string, path: string, body?: Json) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
  }

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    const slug = `ryw${randomUUID().slice(0, 8)}`;
    const admin = await platform.tenantAuth
      .get(BootstrapService)
      .bootstrap({ slug, email: `admin@${slug}.example` });
    token = await McpWorld.token(platform.baseUrl, {
      grant_type: 'password',
      tenant: slug,
      username: admin.email,
      password: admin.password,
    });
    relays = [platform.baseUrl];
    if (platform.startRelayReplica) {
      relays.push(await platform.startRelayReplica());
    }
  });

  afterAll(async () => {
    await platform?.close();
  });

  it(`should configure in the relay what tenant-auth just created, ${RUNS} times without a failure`, async () => {
    const server = await call(platform.baseUrl, 'POST', '/relay/v1/mcp-servers', {
      name: `tools-${randomUUID().slice(0, 8)}`,
      url: 'http://127.0.0.1:9/mcp',
      transport: 'STREAMABLE_HTTP',
    });
    expect(server.status).toBe(201);
    const failures: string[] = [];

    /** One script's create-then-configure, the relay calls right after tenant-auth's answers. */
    async function run(index: number): Promise<void> {
      const relay = relays[index % relays.length];
      const agent = await call(platform.baseUrl, 'POST', '/tenant-auth/v1/agents', {
        name: `script-agent-${index}`,
      });
      const user = await call(platform.baseUrl, 'POST', '/tenant-auth/v1/users', {
        email: `owner-${index}@script.example`,
        displayName: `Owner ${index}`,
      });
      // No wait: the very next calls, as a script, a pipeline or the console would make them.
      const patched = await call(relay, 'PATCH', `/relay/v1/agents/${String(agent.body.id)}`, {
        description: `configured by run ${index}`,
        ownerUserId: user.body.id,
      });
      const subscribed = await call(relay, 'POST', '/relay/v1/subscriptions', {
        kind: 'AGENT_TO_MCP_SERVER',
        sourceId: agent.body.id,
        targetId: server.body.id,
      });
      const answers = [agent.status, user.status, patched.status, subscribed.status];
      if (answers.join() !== '201,201,200,201') {
        failures.push(
          `run ${index}: ${answers.join()} ${JSON.stringify([patched.body, subscribed.body])}`,
        );
      }
    }

    // Several scripts at once, as CI pipelines of one tenant run: the events queue behind each other.
    await Promise.all(
      Array.from({ length: SCRIPTS }, async (_, script) => {
        for (let index = script; index < RUNS; index += SCRIPTS) {
          await run(index);
        }
      }),
    );

    expect({ failed: failures.length, first: failures.slice(0, 5) }).toEqual({
      failed: 0,
      first: [],
    });
  }, 600_000);
});
