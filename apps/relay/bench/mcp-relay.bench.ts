import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  TEST_NATS_URL,
  createTestDatabase,
  deleteNatsStreams,
  freePort,
  startMcpTestServer,
  uniqueNatsPrefix,
} from '@agp/testing';
import { Client } from 'pg';

import { Measurement, closedLoop, table } from './measure';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { McpSessionClient, fixedRate } from './mcp/mcp-load';
import {
  ServiceProcess,
  bootstrapTenant,
  cpuSecondsOf,
  startService,
  stopService,
} from './mcp/platform-processes';

const RATE = Number(process.env.BENCH_RATE ?? 300);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10);
const LOOP_SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const BASE = 'http://agp.bench';

type Json = Record<string, unknown>;

async function api<T = Json>(
  gateway: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) {
    throw new Error(`${method} ${path}: ${response.status} ${text}`);
  }
  return (text ? JSON.parse(text) : {}) as T;
}

async function token(gateway: string, form: Record<string, string>): Promise<string> {
  const response = await fetch(`${gateway}/tenant-auth/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json()) as Json;
  if (response.status !== 200) {
    throw new Error(`token: ${response.status} ${JSON.stringify(body)}`);
  }
  return String(body.access_token);
}

/** The tenant, its agent subscribed to the test server, five policies bound to all traffic. */
async function arrange(gateway: string, env: Record<string, string>, serverUrl: string) {
  const out = join(tmpdir(), `agp-bench-${randomUUID()}.json`);
  await bootstrapTenant(env, 'bench', out);
  const admin = JSON.parse(readFileSync(out, 'utf8')) as { email: string; password: string };
  rmSync(out);
  const adminToken = await token(gateway, {
    grant_type: 'password',
    tenant: 'bench',
    username: admin.email,
    password: admin.password,
  });
  const agent = await api<{ id: string; clientSecret: string }>(
    gateway,
    adminToken,
    'POST',
    '/tenant-auth/v1/agents',
    { name: 'bench-agent' },
  );
  for (let i = 0; ; i += 1) {
    const known = await fetch(`${gateway}/relay/v1/agents/${agent.id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (known.status === 200) {
      break;
    }
    if (i > 200) {
      throw new Error('the relay never learnt of the agent');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const server = await api<{ id: string }>(gateway, adminToken, 'POST', '/relay/v1/mcp-servers', {
    name: 'bench-tools',
    url: serverUrl,
    transport: 'STREAMABLE_HTTP',
  });
  await api(gateway, adminToken, 'POST', '/relay/v1/subscriptions', {
    kind: 'AGENT_TO_MCP_SERVER',
    sourceId: agent.id,
    targetId: server.id,
  });
  for (const [i, regoSource] of BENCH_POLICIES.entries()) {
    const group = await api<{ id: string }>(
      gateway,
      adminToken,
      'POST',
      '/relay/v1/policy-groups',
      { name: `bench-${i}` },
    );
    await api(gateway, adminToken, 'POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource,
    });
    await api(gateway, adminToken, 'POST', '/relay/v1/policy-bindings', {
      groupId: group.id,
      bindingLevel: 'TENANT',
    });
  }
  const mcpToken = await token(gateway, {
    grant_type: 'client_credentials',
    client_id: agent.id,
    client_secret: agent.clientSecret,
    scope: 'mcp:call',
  });
  return { serverId: server.id, mcpToken };
}

/** Mean policy time per hop, from the hops' own audit events (once the trail has them all). */
async function whereTheTimeGoes(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const decided = await client.query(
      `SELECT count(*)::int AS hops, avg((details->>'latencyMs')::float) AS decide_ms,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY (details->>'latencyMs')::float) AS p99_ms
         FROM audit.events WHERE event_type = 'COMMUNICATION_AUDIT'`,
    );
    const row = decided.rows[0] as {
      hops: number;
      decide_ms: number | null;
      p99_ms: number | null;
    };
    return `hops in the audit trail: ${row.hops}; policy decision (5 bindings) per hop: mean ${(row.decide_ms ?? 0).toFixed(3)} ms, p99 ${(row.p99_ms ?? 0).toFixed(3)} ms`;
  } finally {
    await client.end();
  }
}

function cpuByProcess(services: ServiceProcess[]): Record<string, number> {
  const cpu: Record<string, number> = { 'bench (load + MCP server)': cpuSecondsOf(process.pid) };
  for (const service of services) {
    cpu[service.name] = cpuSecondsOf(service.child.pid!);
  }
  return cpu;
}

async function main(): Promise<void> {
  const database = await createTestDatabase('bench_mcp');
  const prefix = uniqueNatsPrefix('benchmcp');
  const tools = await startMcpTestServer({ jsonResponse: true, record: false });
  const services: ServiceProcess[] = [];
  try {
    const [authPort, relayPort, auditPort, gatewayPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const env: Record<string, string> = {
      PUBLIC_BASE_URL: BASE,
      DATABASE_URL: database.url,
      NATS_URL: TEST_NATS_URL,
      NATS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      KEY_ENCRYPTION_SECRET: 'k'.repeat(40),
      SECRETS_KEY: randomBytes(32).toString('base64'),
      TOKEN_RATE_LIMIT_PER_ADDRESS: '1000000',
      EGRESS_ALLOW_PRIVATE: 'true',
      TRUST_PROXY_HOPS: '1',
      AUTH_JWKS_URL: `http://127.0.0.1:${authPort}/tenant-auth/v1/.well-known/jwks.json`,
    };
    services.push(await startService('tenant-auth', authPort, env));
    services.push(await startService('relay', relayPort, env));
    services.push(await startService('audit', auditPort, env));
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    services.push(
      await startService('api-gateway', gatewayPort, {
        ...env,
        TENANT_AUTH_URL: `http://127.0.0.1:${authPort}`,
        RELAY_URL: `http://127.0.0.1:${relayPort}`,
        AUDIT_URL: `http://127.0.0.1:${auditPort}`,
      }),
    );
    const { serverId, mcpToken } = await arrange(gatewayUrl, env, tools.url);

    const direct = new McpSessionClient(new URL(tools.url));
    const relayOnly = new McpSessionClient(
      new URL(`http://127.0.0.1:${relayPort}/relay/mcp/${serverId}`),
      mcpToken,
    );
    const platform = new McpSessionClient(new URL(`${gatewayUrl}/relay/mcp/${serverId}`), mcpToken);
    for (const client of [direct, relayOnly, platform]) {
      await client.initialize();
    }
    const call = (client: McpSessionClient) => () =>
      client.callTool('echo', { text: 'quarterly numbers for the board' });
    for (const client of [direct, relayOnly, platform]) {
      for (let i = 0; i < 300; i += 1) {
        await call(client)();
      }
    }

    const rows: Measurement[] = [];
    rows.push(
      await fixedRate(`direct to the MCP server, ${RATE}/s`, RATE, RATE_SECONDS, call(direct)),
    );
    rows.push(
      await fixedRate(`relay only (no gateway), ${RATE}/s`, RATE, RATE_SECONDS, call(relayOnly)),
    );
    const cpuBefore = cpuByProcess(services);
    rows.push(await fixedRate(`gateway + relay, ${RATE}/s`, RATE, RATE_SECONDS, call(platform)));
    // The audit trail finishes what the calls sent it before the CPU is read again.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cpuAfter = cpuByProcess(services);
    rows.push(
      await closedLoop(
        `direct, closed loop ×${CONCURRENCY}`,
        CONCURRENCY,
        LOOP_SECONDS,
        call(direct),
      ),
    );
    rows.push(
      await closedLoop(
        `gateway + relay, closed loop ×${CONCURRENCY}`,
        CONCURRENCY,
        LOOP_SECONDS,
        call(platform),
      ),
    );
    const [d, r, g, dc, gc] = rows as [
      Measurement,
      Measurement,
      Measurement,
      Measurement,
      Measurement,
    ];

    console.log(
      `\nMCP tools/call: 5 bindings evaluated both ways, audit durable before the answer\n`,
    );
    console.log(table(rows));
    console.log(
      `\nadded by gateway + relay at ${RATE}/s: p50 ${((g.p50Us - d.p50Us) / 1000).toFixed(3)} ms, p99 ${((g.p99Us - d.p99Us) / 1000).toFixed(3)} ms (goal: p50 ≤ 1 ms)`,
    );
    console.log(
      `of which the gateway hop: p50 ${((g.p50Us - r.p50Us) / 1000).toFixed(3)} ms; the relay: p50 ${((r.p50Us - d.p50Us) / 1000).toFixed(3)} ms`,
    );
    console.log(
      `capacity: ${gc.perSecond}/s through the platform vs ${dc.perSecond}/s direct = ${(gc.perSecond / dc.perSecond).toFixed(2)} × direct (goal ≥ 0.4)`,
    );
    console.log(await whereTheTimeGoes(database.url));
    const calls = RATE * RATE_SECONDS;
    const perCall = Object.keys(cpuAfter).map(
      (name) => `${name} ${Math.round(((cpuAfter[name] - cpuBefore[name]) / calls) * 1e6)} µs`,
    );
    console.log(
      `CPU per call through the platform (incl. the audit trail's work): ${perCall.join(', ')}`,
    );
    for (const client of [direct, relayOnly, platform]) {
      await client.close();
    }
  } finally {
    for (const service of services.reverse()) {
      await stopService(service);
    }
    await tools.close();
    await database.drop();
    await deleteNatsStreams(prefix);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
