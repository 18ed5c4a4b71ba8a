import 'reflect-metadata';

import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';

import { AuthModule } from '@agp/auth';
import { RecordedHop, RecordedHopsPage, RecordedHopsQuery } from '@agp/contracts';
import { createHttpApp } from '@agp/http';
import { EventBusModule, OWNER_QUERIES, OwnerQueries } from '@agp/messaging';
import { TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { DecisionInput } from '../src/decisions/decision.types';
import { PolicyDecisionService } from '../src/decisions/policy-decision.service';
import { RelayModule } from '../src/relay.module';
import { GUARDRAILS, PII, REVIEW, SECRETS, WORDS } from '../test/support/policies';
import { Measurement, sequential, table } from './measure';

/**
 * Issue 39 (governance.md G10): hops a replay re-judges per second, against the decision
 * service's rate on the same hop in the same run (goal ≥ 0.5 ×), and what a SHADOW binding adds
 * to a hop's own decision path (its judgement runs after the hop, off that path). The recorded
 * trail is served from memory by an answerer of RECORDED_HOPS in this process (the audit
 * service's own read is not measured here); everything else (the claim loop, judging, the
 * results and progress committed to PostgreSQL per page) is the relay's.
 */
const POLICIES = {
  guardrails: GUARDRAILS,
  secrets: SECRETS,
  pii: PII,
  words: WORDS,
  review: REVIEW,
};
const DATA: Record<string, Record<string, unknown>> = {
  words: { banned: ['competitor-x', 'acme-rival'] },
};
const HOPS = Number(process.env.BENCH_REPLAY_HOPS ?? 20_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5_000);

function message(): { json: unknown; text: string } {
  const records = Array.from({ length: 31 }, (_v, i) => ({
    id: `cust-${i}`,
    name: `Customer number ${i}`,
    city: 'Springfield',
    tier: i % 3 === 0 ? 'gold' : 'silver',
    notes: 'prefers e-mail contact during office hours',
  }));
  const json = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'lookup_customer',
      arguments: { note: 'please check 123-45-6789 before the call', records },
    },
  };
  const strings: string[] = [];
  JSON.stringify(json.params, (_k, v: unknown) =>
    typeof v === 'string' ? (strings.push(v), v) : v,
  );
  return { json, text: strings.join('\n') };
}

/** The trail a replay reads: HOPS recorded tools/calls with content, one a millisecond. */
function recordedTrail(source: string, sink: string, content: string): RecordedHop[] {
  const start = Date.parse('2026-12-01T00:00:00.000Z');
  return Array.from({ length: HOPS }, (_v, i) => ({
    id: randomUUID(),
    occurredAt: new Date(start + i).toISOString(),
    protocol: 'MCP',
    direction: 'REQUEST',
    source: { type: 'AGENT', id: source, label: 'billing-agent' },
    sink: { type: 'MCP_SERVER', id: sink, label: 'crm-tools' },
    method: 'tools/call',
    toolName: 'lookup_customer',
    action: 'MASK',
    reasons: ['SSN in message'],
    verdicts: [{ bindingId: randomUUID(), groupId: randomUUID(), action: 'MASK' }],
    content,
  }));
}

function answerFrom(trail: RecordedHop[]) {
  return (query: RecordedHopsQuery): Promise<RecordedHopsPage> => {
    const after = query.afterId ? trail.findIndex((h) => h.id === query.afterId) + 1 : 0;
    const hops = trail.slice(after, after + query.limit);
    const last = hops.at(-1);
    const next =
      last && after + hops.length < trail.length
        ? { afterAt: last.occurredAt, afterId: last.id }
        : undefined;
    return Promise.resolve({ hops, ...(next ? { next } : {}) });
  };
}

async function main(): Promise<void> {
  const db = await createTestDatabase('relay_replay_bench');
  const issuer = await TestTokenIssuer.create();
  const app = await createHttpApp({
    service: 'relay',
    logLevel: 'silent',
    imports: [
      AuthModule.forRoot(issuer.authOptions()),
      EventBusModule.forRoot({ prefix: 'bench' }),
      RelayModule.forRoot({
        DATABASE_URL: db.url,
        NATS_PREFIX: 'bench',
        POLICY_CACHE_TTL_MS: 3_600_000,
        SECRETS_KEY: randomBytes(32).toString('base64'),
      }),
    ],
  });
  await app.init();
  try {
    const tenantId = randomUUID();
    const token = await issuer.token({ tenantId, perms: ['TENANT:ADMIN'] });
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      if (response.statusCode >= 300) {
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      }
      return JSON.parse(response.body) as Record<string, unknown>;
    };
    const groups: string[] = [];
    for (const [name, regoSource] of Object.entries(POLICIES)) {
      const group = await call('POST', '/relay/v1/policy-groups', { name, data: DATA[name] ?? {} });
      groups.push(String(group.id));
      await call('POST', `/relay/v1/policy-groups/${String(group.id)}/versions`, { regoSource });
      await call('POST', '/relay/v1/policy-bindings', {
        groupId: group.id,
        bindingLevel: 'TENANT',
      });
    }
    const msg = message();
    const source = randomUUID();
    const sink = randomUUID();
    const input: DecisionInput = {
      tenant: { id: tenantId },
      protocol: 'MCP',
      direction: 'REQUEST',
      source: { type: 'AGENT', id: source, name: 'billing-agent' },
      sink: { type: 'MCP_SERVER', id: sink, name: 'crm-tools' },
      method: 'tools/call',
      tool: { name: 'lookup_customer' },
      message: msg,
      time: new Date().toISOString(),
    };
    const service = app.get(PolicyDecisionService);
    const rows: Measurement[] = [];
    const decide = await sequential(
      'decision service in-process, 5 bindings',
      ITERATIONS,
      1_000,
      () => service.decide(input),
    );
    rows.push(decide);

    // A candidate: a second version of the guardrails group, judged in the place of the first.
    const candidate = groups[0];
    await call('POST', `/relay/v1/policy-groups/${candidate}/versions`, {
      regoSource: GUARDRAILS,
      version: '2',
    });
    await call('POST', '/relay/v1/policy-bindings', {
      groupId: candidate,
      groupVersion: '2',
      bindingLevel: 'TENANT',
      mode: 'SHADOW',
    });
    await service.decide(input);
    rows.push(
      await sequential('… with 1 SHADOW binding: the hop path', ITERATIONS, 1_000, () =>
        service.decide(input),
      ),
    );
    rows.push(
      await sequential('… and its judgement, off the hop path', ITERATIONS, 1_000, async () =>
        service.judgeShadows(await service.decide(input)),
      ),
    );

    const trail = recordedTrail(source, sink, JSON.stringify(msg.json));
    const queries = app.get<OwnerQueries>(OWNER_QUERIES);
    const stop = await queries.answer('RECORDED_HOPS', answerFrom(trail));
    const started = process.hrtime.bigint();
    const replay = await call('POST', `/relay/v1/policy-groups/${candidate}/versions/2/replays`, {
      from: trail[0].occurredAt,
      to: new Date(Date.parse(trail.at(-1)!.occurredAt) + 1).toISOString(),
    });
    let read: Record<string, unknown>;
    do {
      await new Promise((resolve) => setTimeout(resolve, 20));
      read = await call(
        'GET',
        `/relay/v1/policy-groups/${candidate}/versions/2/replays/${String(replay.replayId)}`,
      );
    } while (read.status === 'PENDING' || read.status === 'RUNNING');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    stop();
    if (read.status !== 'COMPLETED' || read.judged !== HOPS) {
      throw new Error(`replay ended ${String(read.status)}: ${JSON.stringify(read)}`);
    }
    const replayRate = Math.round(HOPS / seconds);
    rows.push({
      label: `replay of ${HOPS} recorded hops (request → COMPLETED)`,
      operations: HOPS,
      perSecond: replayRate,
      p50Us: NaN,
      p99Us: NaN,
    });

    process.stdout.write(`relay replay benchmark — ${new Date().toISOString()}\n`);
    process.stdout.write(
      `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, message ${Buffer.byteLength(JSON.stringify(msg.json))} bytes, 5 TENANT bindings, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n\n`,
    );
    process.stdout.write(`${table(rows)}\n\n`);
    process.stdout.write(
      `replay ${replayRate} hops/s against decisions ${decide.perSecond}/s: ${(replayRate / decide.perSecond).toFixed(2)} × (goal ≥ 0.5 ×)\n`,
    );
    process.stdout.write(
      `a SHADOW binding adds ${(rows[1].p50Us - rows[0].p50Us).toFixed(1)} µs to a hop's decision p50 (its judgement: ${(rows[2].p50Us - rows[1].p50Us).toFixed(1)} µs, after the hop)\n`,
    );
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
