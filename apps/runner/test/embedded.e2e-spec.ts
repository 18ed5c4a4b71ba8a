import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  WebhookReceiver,
  connectMcpClient,
  eventually,
  matchingSignatures,
  startMcpTestServer,
  toolText,
} from '@agp/testing';

const ENTRY = join(__dirname, '..', 'dist', 'main.js');

let stderr = '';

function startEmbedded(dataDir: string, port: number): ChildProcess {
  const child = spawn(process.execPath, [ENTRY], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      NATS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-4_000);
  });
  return child;
}

/** Nest closes the application on SIGTERM, then re-raises the signal: either ending is orderly. */
async function stop(child: ChildProcess): Promise<string> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return 'already stopped';
  }
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) =>
      resolve(code === 0 || signal === 'SIGTERM' ? 'orderly' : `code ${code}`),
    ),
  );
  child.kill('SIGTERM');
  return exited;
}

async function ready(
  port: number,
): Promise<{ status: number; body: { checks: Record<string, string> } }> {
  const response = await fetch(`http://127.0.0.1:${port}/health/ready`).catch((error: Error) => {
    throw new Error(`${error.message}; the process said: ${stderr || '(nothing)'}`);
  });
  if (response.status !== 200) {
    throw new Error(`not ready: ${response.status}`);
  }
  return {
    status: response.status,
    body: (await response.json()) as { checks: Record<string, string> },
  };
}

/** D2: `npm start` needs nothing installed or running, and keeps its data across restarts. */
describe('embedded one-process platform', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agp-embedded-'));
  const port = 18_400 + Math.floor(Math.random() * 500);
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child) {
      await stop(child);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should be ready with every service on an empty data directory, then again after a restart', async () => {
    child = startEmbedded(dataDir, port);
    const first = await eventually(() => ready(port), 1_800, 50);
    expect(first.body.checks).toEqual({
      events: 'up',
      'database:tenant_auth': 'up',
      'database:relay': 'up',
      'database:audit': 'up',
    });
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(true);
    // D37: the relay's credential key, generated once and kept for its owner only.
    const keyFile = join(dataDir, 'relay-secrets.key');
    const key = readFileSync(keyFile, 'utf8');
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(await stop(child)).toBe('orderly');

    child = startEmbedded(dataDir, port);
    const second = await eventually(() => ready(port), 1_800, 50);
    expect(second.status).toBe(200);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
  }, 240_000);

  it('should describe its API at /openapi.json, browsable at /docs, and its events at /asyncapi.json', async () => {
    const base = `http://127.0.0.1:${port}`;
    const openApi = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(openApi.openapi).toBe('3.1.0');
    expect(Object.keys(openApi.paths)).toEqual(
      expect.arrayContaining(['/tenant-auth/v1/agents', '/relay/v1/agents', '/audit/v1/events']),
    );
    const docs = await fetch(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui-bundle.js');
    const asyncApi = (await (await fetch(`${base}/asyncapi.json`)).json()) as { asyncapi: string };
    expect(asyncApi.asyncapi).toBe('3.0.0');
  });

  it('should govern an MCP call on the embedded PostgreSQL: grant filtered, both hops audited under the caller correlation id, the agent told of its subscription by a signed webhook', async () => {
    const base = `http://127.0.0.1:${port}`;
    const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      email: string;
      password: string;
      tokenUrl: string;
    };
    // PUBLIC_BASE_URL unset: the platform's address follows PORT.
    expect(boot.tokenUrl).toBe(`http://localhost:${port}/tenant-auth/v1/oauth/token`);
    const admin = await tokenOf(base, {
      grant_type: 'password',
      tenant: 'default',
      username: boot.email,
      password: boot.password,
    });
    const tools = await startMcpTestServer();
    const receiver = await WebhookReceiver.start();
    try {
      const agent = await call<{ id: string; clientSecret: string }>(
        base,
        admin,
        'POST',
        '/tenant-auth/v1/agents',
        { name: 'embedded-agent' },
      );
      // D19 on PGlite: deliveries leased and sent from the one process. No wait after the agent's
      // creation: the relay asks tenant-auth for an agent it has not heard of yet (relay.md R21).
      const { webhookSecret } = await call<{ webhookSecret: string }>(
        base,
        admin,
        'PATCH',
        `/relay/v1/agents/${agent.id}`,
        { webhookUrl: receiver.url('embedded') },
      );
      const server = await call<{ id: string }>(base, admin, 'POST', '/relay/v1/mcp-servers', {
        name: 'embedded-tools',
        url: tools.url,
        transport: 'STREAMABLE_HTTP',
      });
      await call(base, admin, 'POST', '/relay/v1/subscriptions', {
        kind: 'AGENT_TO_MCP_SERVER',
        sourceId: agent.id,
        targetId: server.id,
        tools: ['echo'],
      });
      const mcpToken = await tokenOf(base, {
        grant_type: 'client_credentials',
        client_id: agent.id,
        client_secret: agent.clientSecret,
        scope: 'mcp:call',
      });
      const correlationId = randomUUID();
      const sut = await connectMcpClient(`${base}/relay/mcp/${server.id}`, {
        token: mcpToken,
        headers: { 'x-correlation-id': correlationId },
      });
      const listed = await sut.client.listTools();
      const result = await sut.client.callTool({ name: 'echo', arguments: { text: 'embedded' } });
      await sut.close();

      expect(listed.tools.map((t) => t.name)).toEqual(['echo']);
      expect(toolText(result)).toContain('embedded');
      const trace = await eventually(async () => {
        const found = await call<{
          items: Array<{ eventType: string; details: { toolName?: string } }>;
        }>(base, admin, 'GET', `/audit/v1/traces/${correlationId}`);
        expect(found.items.filter((e) => e.details?.toolName === 'echo')).toHaveLength(2);
        return found;
      });
      // Both hops; the call's arguments passed the tool's schema, recorded on its hop (GR31).
      expect([...new Set(trace.items.map((e) => e.eventType))].sort()).toEqual([
        'COMMUNICATION_AUDIT',
      ]);
      expect(
        trace.items.map((e) => (e.details as { validation?: { valid: boolean } }).validation),
      ).toContainEqual(expect.objectContaining({ valid: true }));
      const [told] = await eventually(() => {
        const got = receiver.of('embedded').filter((r) => r.body.type === 'SUBSCRIPTION_CHANGED');
        expect(got).toHaveLength(1);
        return got;
      });
      expect(told.body).toMatchObject({ agentId: agent.id, data: { targetId: server.id } });
      expect(matchingSignatures(told, webhookSecret)).toEqual([0]);
    } finally {
      await receiver.close();
      await tools.close();
      expect(await stop(child!)).toBe('orderly');
    }
  }, 120_000);
});

async function tokenOf(base: string, form: Record<string, string>): Promise<string> {
  const response = await fetch(`${base}/tenant-auth/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.status).toBe(200);
  return String(((await response.json()) as { access_token: string }).access_token);
}

async function call<T = unknown>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) {
    throw new Error(`${method} ${path}: ${response.status} ${text}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}
