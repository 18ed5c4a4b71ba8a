import 'reflect-metadata';

import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { join } from 'node:path';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule } from '@agp/auth';
import { AuditableEventData, EVENT_VERSION, EventEnvelope } from '@agp/contracts';
import { createHttpApp } from '@agp/http';
import { DEFAULT_REDELIVERY, EventBusModule, JetStreamTransport } from '@agp/messaging';
import {
  TEST_NATS_URL,
  TestTokenIssuer,
  createTestDatabase,
  freePort,
  uniqueNatsPrefix,
} from '@agp/testing';
import { Client } from 'pg';
import pino from 'pino';

import { RelayModule } from '../src/relay.module';
import { Measurement, summarize, table } from './measure';

/**
 * Issue 34 § 1 (conversations.md CV4–CV8): list and read p50 of `/relay/v1/conversations` with
 * 100,000 hops in the tenant, against the same reads of a tenant with 1,000 hops and a relay read
 * that never leaves the relay (`GET /relay/v1/traffic-settings`), all in the same run. The relay
 * runs in this process; the audit service (which owns the trail and the index, D4, and which the
 * relay may not import, F27) runs as its own process from `apps/audit/dist`, as in production;
 * NATS JetStream between them. The hops reach the audit service as the relay's outbox sends them.
 */
const BIG = Number(process.env.BENCH_CONVERSATION_HOPS ?? 100_000);
const SMALL = 1_000;
/** Hops per conversation: a person's message and answer, an MCP call and its answer … */
const HOPS_PER_CONVERSATION = 10;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const PUBLISHERS = 256;
const WARMUP = 30;

function hopEvent(tenantId: string, i: number, start: number): EventEnvelope {
  const conversation = Math.floor(i / HOPS_PER_CONVERSATION);
  const isMcp = i % HOPS_PER_CONVERSATION >= HOPS_PER_CONVERSATION / 2;
  const person = { type: 'USER', id: `person-${conversation % 500}` };
  const agent = { type: 'AGENT', id: `agent-${conversation % 50}` };
  const server = { type: 'MCP_SERVER', id: `server-${conversation % 7}` };
  const correlation = `CORRELATION:c-${conversation}`;
  const data: AuditableEventData = {
    actor: isMcp ? agent : person,
    source: isMcp ? agent : person,
    sink: isMcp ? server : agent,
    protocol: isMcp ? 'MCP' : 'JSONRPC',
    action: 'LOG',
    policyIds: [randomUUID()],
    decision: { reasons: ['seen'] },
    contentDigest: 'ab'.repeat(32),
    content: JSON.stringify({ text: `message ${i} of conversation ${conversation}` }),
    details: {
      direction: i % 2 === 0 ? 'REQUEST' : 'RESPONSE',
      conversationKeys: isMcp
        ? [`MCP_SESSION:${server.id}:s-${conversation}`, correlation]
        : [`A2A_CONTEXT:ctx-${conversation}`, correlation],
    },
  };
  return {
    id: randomUUID(),
    type: 'COMMUNICATION_AUDIT',
    version: EVENT_VERSION,
    occurredAt: new Date(start + i * 10).toISOString(),
    tenantId,
    correlationId: correlation.slice('CORRELATION:'.length),
    data,
  };
}

async function publishHops(prefix: string, tenantId: string, count: number): Promise<void> {
  const transport = await JetStreamTransport.connect(
    { url: TEST_NATS_URL, prefix, redelivery: DEFAULT_REDELIVERY },
    pino({ level: 'silent' }),
  );
  const start = Date.now() - count * 10;
  let next = 0;
  const publisher = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      await transport.publish(hopEvent(tenantId, i, start));
    }
  };
  await Promise.all(Array.from({ length: PUBLISHERS }, publisher));
  await transport.close();
}

async function startAuditProcess(databaseUrl: string, prefix: string): Promise<ChildProcess> {
  const main = join(__dirname, '..', '..', '..', 'audit', 'dist', 'main.js');
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(await freePort()),
      DATABASE_URL: databaseUrl,
      NATS_URL: TEST_NATS_URL,
      NATS_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) {
      process.stderr.write(`audit process exited with ${code}\n`);
    }
  });
  return child;
}

async function waitForHops(sql: Client, tenantId: string, count: number): Promise<void> {
  for (;;) {
    const result = await sql.query<{ hops: string }>(
      'SELECT coalesce(sum(hop_count), 0) AS hops FROM audit.conversations WHERE tenant_id = $1',
      [tenantId],
    );
    if (Number(result.rows[0]?.hops) >= count) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function main(): Promise<void> {
  const db = await createTestDatabase('relay_conversations_bench');
  const prefix = uniqueNatsPrefix('benchconv');
  const issuer = await TestTokenIssuer.create();
  const audit = await startAuditProcess(db.url, prefix);
  const sql = new Client({ connectionString: db.url });
  let app: NestFastifyApplication | undefined;
  try {
    app = await createHttpApp({
      service: 'relay',
      logLevel: 'silent',
      imports: [
        AuthModule.forRoot(issuer.authOptions()),
        // A loaded machine shows as latency here, not as a read that gave up after 3 s.
        EventBusModule.forRoot({ prefix, natsUrl: TEST_NATS_URL, queryTimeoutMs: 30_000 }),
        RelayModule.forRoot({
          DATABASE_URL: db.url,
          NATS_URL: TEST_NATS_URL,
          NATS_PREFIX: prefix,
          POLICY_CACHE_TTL_MS: 3_600_000,
          SECRETS_KEY: randomBytes(32).toString('base64'),
        }),
      ],
    });
    await app.init();
    await sql.connect();
    const [big, small] = [randomUUID(), randomUUID()];
    const seedStart = Date.now();
    await publishHops(prefix, big, BIG);
    await publishHops(prefix, small, SMALL);
    await waitForHops(sql, big, BIG);
    await waitForHops(sql, small, SMALL);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    // Statistics as autovacuum keeps them once a table has grown by a tenth; a fresh table has none
    // and the planner would sort the tenant's whole index range (see BENCHMARKS.md).
    await sql.query(
      'ANALYZE audit.conversations, audit.conversation_parties, audit.conversation_hops',
    );
    const perms = ['AGENT_CONVERSATIONS:READ', 'MCP_CONVERSATIONS:READ', 'TENANT:READ'];
    const client = async (tenantId: string) => {
      const token = await issuer.token({ tenantId, perms });
      return async (url: string): Promise<Record<string, unknown>> => {
        const response = await app!.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
        });
        if (response.statusCode !== 200) {
          throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
        }
        return JSON.parse(response.body) as Record<string, unknown>;
      };
    };
    // Every measurement is taken once per round, round after round, so the machine's load (shared
    // with other runs) weighs on each row alike and the rows compare.
    const cases: Array<{ label: string; run: () => Promise<unknown> }> = [];
    for (const [tenantId, hops] of [
      [small, SMALL],
      [big, BIG],
    ] as const) {
      const get = await client(tenantId);
      const label = `${hops.toLocaleString('en-US')} hops`;
      if (hops === SMALL) {
        cases.push({
          label: 'baseline: GET /relay/v1/traffic-settings',
          run: () => get('/relay/v1/traffic-settings'),
        });
      }
      const newest = (await get('/relay/v1/conversations?limit=50')) as {
        items: Array<{ id: string }>;
        nextCursor?: string;
      };
      const someId = newest.items[newest.items.length - 1].id;
      cases.push(
        { label: `list, newest 50 (${label})`, run: () => get('/relay/v1/conversations?limit=50') },
        {
          label: `list, 2nd page by cursor (${label})`,
          run: () => get(`/relay/v1/conversations?limit=50&cursor=${newest.nextCursor}`),
        },
        {
          label: `list, agentId + mcpServerId (${label})`,
          run: () => get('/relay/v1/conversations?limit=50&agentId=agent-7&mcpServerId=server-3'),
        },
        {
          label: `read, 10 messages with content (${label})`,
          run: () => get(`/relay/v1/conversations/${someId}`),
        },
      );
    }
    const latencies = cases.map(() => [] as number[]);
    const started = process.hrtime.bigint();
    for (let round = 0; round < ITERATIONS + WARMUP; round += 1) {
      for (const [i, c] of cases.entries()) {
        const t0 = process.hrtime.bigint();
        await c.run();
        if (round >= WARMUP) {
          latencies[i].push(Number(process.hrtime.bigint() - t0) / 1000);
        }
      }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9 / cases.length;
    const rows: Measurement[] = cases.map((c, i) => summarize(c.label, latencies[i], seconds));
    const load = os.loadavg().map((l) => l.toFixed(2));
    process.stdout.write(
      `\nconversations (${os.cpus().length} CPUs, load ${load.join(' ')}; ${BIG.toLocaleString('en-US')} + ${SMALL.toLocaleString('en-US')} hops indexed in ${seedSeconds.toFixed(1)} s through the audit process)\n`,
    );
    process.stdout.write(`${table(rows)}\n`);
  } finally {
    await app?.close();
    await sql.end();
    audit.kill('SIGTERM');
    await new Promise((resolve) => audit.once('exit', resolve));
    await db.drop();
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
