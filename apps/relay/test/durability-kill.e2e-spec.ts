import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';

const APP_DIR = join(__dirname, '..');
const REGISTER_TS = join(APP_DIR, '..', 'audit', 'scripts', 'register-ts.js');

interface RelayProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

/** A relay replica in its own process on the bed's database and NATS prefix. */
function startRelayProcess(relay: RelayBed): Promise<RelayProcess> {
  const child = spawn(
    process.execPath,
    ['-r', REGISTER_TS, join(__dirname, 'support', 'relay-process.ts')],
    {
      cwd: APP_DIR,
      env: {
        ...process.env,
        RELAY_PROCESS_DATABASE_URL: relay.db.url,
        RELAY_PROCESS_PREFIX: relay.prefix,
        RELAY_PROCESS_AUTH: JSON.stringify(relay.issuer.authOptions()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4_000);
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const port = /ready (\d+)/.exec(chunk.toString())?.[1];
      if (port) {
        resolve({ url: `http://127.0.0.1:${port}`, child, exited });
      }
    });
    void exited.then((code) =>
      reject(new Error(`relay process exited (${String(code)}): ${errors}`)),
    );
  });
}

/** An MCP server reduced to what the relay forwards: each tools/call is seen, then answered. */
class Upstream {
  readonly seen: string[] = [];
  /** Runs when a tools/call arrives, before it is answered (the kill). */
  onCall: () => void = () => undefined;
  private server!: Server;
  url!: string;

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) {
      text += String(chunk);
    }
    const message = JSON.parse(text) as { id: number; method: string; params?: unknown };
    if (message.method === 'tools/call') {
      this.seen.push(JSON.stringify(message.params));
      this.onCall();
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: 'done' }] },
      }),
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * traffic.md T52: the relay process really killed (SIGKILL) at each step of an MCP tools/call,
 * in each durability mode: what the server saw, what the agent saw, what the audit trail holds
 * (every event JetStream acknowledged, as the audit service would ingest it).
 */
describe('durability of a hop when the relay is killed (T52)', () => {
  const relay = RelayBed.use('durability_kill', { egressAllowPrivate: true });
  const upstream = new Upstream();
  let serverId: string;
  let token: string;

  beforeAll(async () => {
    await upstream.start();
    const agentId = await relay.agent();
    const server = await relay.call<{ id: string }>('POST', '/relay/v1/mcp-servers', {
      name: 'kill-test',
      url: upstream.url,
      transport: 'STREAMABLE_HTTP',
    });
    serverId = server.body.id;
    const subscribed = await relay.call('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
      tools: null,
    });
    expect(subscribed.status).toBe(201);
    token = await relay.issuer.token({
      tenantId: relay.tenantId,
      subject: agentId,
      kind: 'AGENT',
      scope: 'mcp:call',
      audience: `${relay.issuer.baseUrl}/relay`,
    });
  });

  afterAll(() => upstream.close());

  /** One tools/call of the agent to the relay process; the answer, or why there was none. */
  async function toolsCall(
    target: RelayProcess,
    correlationId: string,
  ): Promise<{ status: number; body: unknown } | { failed: string }> {
    try {
      const response = await fetch(`${target.url}/relay/mcp/${serverId}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-correlation-id': correlationId,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: correlationId } },
        }),
      });
      return { status: response.status, body: await response.json() };
    } catch (error) {
      return { failed: error instanceof Error ? error.message : String(error) };
    }
  }

  function hopsOf(correlationId: string): string[] {
    return relay.tap
      .ofType('COMMUNICATION_AUDIT')
      .filter((e) => e.correlationId === correlationId)
      .map((e) => String((e.data.details as { direction?: unknown }).direction))
      .sort();
  }

  async function kill(target: RelayProcess): Promise<void> {
    target.child.kill('SIGKILL');
    await target.exited;
  }

  it.each(['BEFORE_FORWARD', 'BEFORE_ANSWER'])(
    'in %s: a kill while the server works leaves no answer at the agent, and one after the answer leaves both hops in the trail',
    async (durability) => {
      const set = await relay.call('PATCH', '/relay/v1/traffic-settings', { durability });
      expect(set.status).toBe(200);

      // Step 1: killed once the request reached the server, before its answer came back.
      const during = `kill-during-${durability}-${randomUUID()}`;
      const first = await startRelayProcess(relay);
      upstream.onCall = () => first.child.kill('SIGKILL');
      const cut = await toolsCall(first, during);
      await first.exited;
      upstream.onCall = () => undefined;

      expect(cut).toHaveProperty('failed');
      expect(upstream.seen.some((call) => call.includes(during))).toBe(true);
      if (durability === 'BEFORE_FORWARD') {
        // T1/T39: the request's record was durable before the server was called.
        await eventually(() => expect(hopsOf(during)).toEqual(['REQUEST']));
      } else {
        // The window of BEFORE_ANSWER: the server acted; the request's record may be lost.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(['', 'REQUEST']).toContain(hopsOf(during).join(','));
      }

      // Step 2: killed as soon as the agent has its answer: both records were durable before.
      const after = `kill-after-${durability}-${randomUUID()}`;
      const second = await startRelayProcess(relay);
      const answered = await toolsCall(second, after);
      await kill(second);

      expect(answered).toMatchObject({ status: 200, body: { id: 1, result: expect.anything() } });
      await eventually(() => expect(hopsOf(after)).toEqual(['REQUEST', 'RESPONSE']));
      // What the trail shows of the windows, for the decision's table.
      process.stdout.write(
        `${durability}: killed during the call → trail ${JSON.stringify(hopsOf(during))}; ` +
          `killed after the answer → ${JSON.stringify(hopsOf(after))}\n`,
      );
    },
    240_000,
  );
});
