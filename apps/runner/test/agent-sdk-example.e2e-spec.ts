import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';

import { AgentRuntime, TokenRefreshError } from '@agp/agent-sdk';
import { McpTestServer, eventually, startMcpTestServer } from '@agp/testing';

import { countingClient, registerAgent } from './agent-sdk/sdk-world';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

const REPO_DIR = path.resolve(__dirname, '..', '..', '..');

/** How the example ended: its exit code (null when stopped), and what it printed. */
interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The example as its header says to run it: `npm run example -w @agp/agent-sdk` from the
 * repository, with only the documented variables. It is stopped after 45 s, below the MCP SDK's
 * 60 s request timeout and the test's own, so a request that never answers fails the test with
 * what the example printed; in a process group of its own, so npm's child (node) stops too.
 */
async function runExample(env: Record<string, string>): Promise<ExampleRun> {
  const child = spawn('npm', ['run', '--silent', 'example', '-w', '@agp/agent-sdk'], {
    cwd: REPO_DIR,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const stop = setTimeout(() => {
    if (child.pid) {
      process.kill(-child.pid, 'SIGKILL');
    }
  }, 45_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(stop);
  return { code, ...output };
}

/** The example's output when it exited 0; its whole run in the failure otherwise. */
async function exampleOutput(env: Record<string, string>): Promise<string> {
  const result = await runExample(env);
  if (result.code !== 0) {
    throw new Error(`the example ended with ${result.code}: ${JSON.stringify(result)}`);
  }
  return result.stdout;
}

type ServerShape = 'stateful' | 'statelessSse' | 'statelessJson';

/**
 * Issue 14 § 4 and issue 30 § 5: the example run as its header says and a newcomer runs it. The
 * platform is `npm start`'s own process (its entry, PGlite under a DATA_DIR of its own); the
 * agent, the MCP server and the subscription are registered by the bootstrapped administrator as
 * the root README says; then `npm run example -w @agp/agent-sdk` with only the SVC_ variables:
 * token, tools listed, a tool called through the relay, the call in the audit trace. The servers
 * are built with the official SDK in the shapes an agent developer meets: sessions, and its
 * stateless mode (a server and transport per POST) answering SSE by default or JSON.
 */
describe('the example governed agent, run as its header says', () => {
  let platform: EmbeddedPlatform;
  let world: McpWorld;
  const servers = new Map<ServerShape, McpTestServer>();
  const server = (shape: ServerShape): McpTestServer => {
    const started = servers.get(shape);
    if (!started) {
      throw new Error(`no ${shape} MCP server started`);
    }
    return started;
  };

  beforeAll(async () => {
    platform = await startEmbeddedPlatform();
    world = await McpWorld.signIn({ baseUrl: platform.url }, platform.admin);
    servers.set('stateful', await startMcpTestServer());
    servers.set('statelessSse', await startMcpTestServer({ stateless: true }));
    servers.set('statelessJson', await startMcpTestServer({ stateless: true, jsonResponse: true }));
  }, 300_000);

  afterAll(async () => {
    for (const started of servers.values()) {
      await started.close();
    }
    await platform?.stop();
  });

  it.each([
    { shape: 'stateful' as const, label: 'a session, SSE answers' },
    { shape: 'statelessSse' as const, label: 'stateless, SSE answers' },
    { shape: 'statelessJson' as const, label: 'stateless, JSON answers' },
  ])(
    'should list the tools, call one through the relay and exit 0 when its MCP server is $label',
    async ({ shape }) => {
      const tools = server(shape);
      const agent = await registerAgent(world);
      await world.subscribe(agent.id, await world.mcpServer(tools.url));
      const marker = randomUUID();

      const stdout = await exampleOutput({
        SVC_AGENT_ID: agent.id,
        SVC_CLIENT_SECRET: agent.secret,
        SVC_BASE_URL: `${platform.url}/`,
        SVC_TOKEN_URL: `${platform.url}/tenant-auth/v1/oauth/token`,
        EXAMPLE_TOOL: 'echo',
        EXAMPLE_ARGS: JSON.stringify({ text: marker }),
      });

      const correlationId = /traces\/([0-9a-f-]{36})/.exec(stdout)?.[1];
      expect(stdout).toContain('echo, lookup_customer');
      expect(stdout).toContain(marker);
      expect(
        tools.calls.filter((c) => c.tool === 'echo' && c.arguments.text === marker),
      ).toHaveLength(1);
      const trace = await world.trace(correlationId ?? 'missing', (items) =>
        items.some((item) => JSON.stringify(item).includes('tools/call')),
      );
      expect(trace.every((item) => item.correlationId === correlationId)).toBe(true);
    },
  );

  // S14: the relay's 504 after the server's timeout, retried as the request behaviour says, is
  // what the example reports, never the MCP SDK's own 60 s "Request timed out" (-32001).
  it("should exit 1 naming the server and the relay's 504 when its MCP server never answers", async () => {
    const silent = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const { port } = silent.address() as AddressInfo;
      const agent = await registerAgent(world);
      const serverId = await world.mcpServer(`http://127.0.0.1:${port}/mcp`, { timeoutMs: 1_000 });
      await world.subscribe(agent.id, serverId);

      const result = await runExample({
        SVC_AGENT_ID: agent.id,
        SVC_CLIENT_SECRET: agent.secret,
        SVC_BASE_URL: platform.url,
        SVC_TOKEN_URL: `${platform.url}/tenant-auth/v1/oauth/token`,
      });

      expect(result).toMatchObject({
        code: 1,
        stdout: expect.stringContaining(`(${serverId}) through ${platform.url}/relay/mcp/`),
        stderr: expect.stringContaining(`answered 504: MCP server`),
      });
      expect(result.stderr).toContain('did not answer within 1000 ms');
      expect(result.stderr).not.toContain('-32001');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('should find a new subscription on its own when the directory refreshes on its interval', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentRuntime({ config: agent.config, directoryRefreshIntervalMs: 200 });
    await sut.start();
    try {
      const serverId = await world.mcpServer(server('stateful').url);
      await world.subscribe(agent.id, serverId);

      await eventually(async () => {
        expect(sut.directory.mcpServers.map((s) => s.mcpServerId)).toEqual([serverId]);
      });
    } finally {
      sut.stop();
    }
  });

  it('should exit 1 naming the variable when one is missing', async () => {
    const failure = await runExample({ SVC_CLIENT_SECRET: 'x' });

    expect(failure).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('SVC_AGENT_ID is required'),
    });
  });
});

/**
 * Specification, Limits: a token is renewed 60 s before it expires; so with tokens of 60 s each call
 * asks for one, and a revoked secret is felt at the next call.
 */
describe('the client library’s token expiry', () => {
  let platform: McpPlatform;
  let world: McpWorld;

  beforeAll(async () => {
    // Tokens of 60 s: with the 60 s buffer every token counts as expired as soon as it is issued.
    platform = await startMcpPlatform('embedded', { TOKEN_TTL_SEC: '60' });
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    await platform?.close();
  });

  it('should ask for a new token before each call when the token is within 60 s of expiry', async () => {
    const agent = await registerAgent(world);
    const { client: sut, tokenRequests } = countingClient(agent.config);

    await sut.listSubscriptions();
    await sut.listSubscriptions();
    await sut.listMcpServers();

    expect(tokenRequests['svc:api']).toBe(3);
    expect(sut.tokens.cached('svc:api')?.expiresIn).toBe(60);
  });

  it('should raise TokenRefreshError once the secret is rotated, and work again when configured with the new one', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentRuntime({ config: agent.config });
    await sut.client.listSubscriptions();

    const rotated = await world.ok<{ clientSecret: string }>(
      'POST',
      `/tenant-auth/v1/agents/${agent.id}/rotate-secret`,
      undefined,
      200,
    );
    const refused = await sut.client.listSubscriptions().catch((e: unknown) => e);
    const configured = await sut.admin.handle({
      method: 'POST',
      path: '/configure',
      headers: { 'content-type': 'application/json' },
      rawBody: Buffer.from(
        JSON.stringify({ agent_id: agent.id, client_secret: rotated.clientSecret }),
      ),
    });
    const after = await sut.client.listSubscriptions();

    expect(refused).toBeInstanceOf(TokenRefreshError);
    expect(refused).toMatchObject({ statusCode: 401 });
    expect(configured.status).toBe(200);
    expect(after).toEqual([]);
  });
});
