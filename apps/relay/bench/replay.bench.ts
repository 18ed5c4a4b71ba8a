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
import { Measurement, sequential, summarize, table } from './measure';

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
const HOPS = Number(process.env.BENCH_REPLAY_HOPS ?? 3_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1_000);

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
    const msg = message();
    const source = randomUUID();
    const sink = randomUUID();
    const service = app.get(PolicyDecisionService);
    /** A tenant with the five bindings (and the candidate, version 2 of the first group). */
    const tenant = async (isShadowed: boolean) => {
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
        const group = await call('POST', '/relay/v1/policy-groups', {
          name,
          data: DATA[name] ?? {},
        });
        groups.push(String(group.id));
        await call('POST', `/relay/v1/policy-groups/${String(group.id)}/versions`, { regoSource });
        await call('POST', '/relay/v1/policy-bindings', {
          groupId: group.id,
          bindingLevel: 'TENANT',
        });
      }
      // The candidate: a second version of the guardrails group, judged in the place of the first.
      await call('POST', `/relay/v1/policy-groups/${groups[0]}/versions`, {
        regoSource: GUARDRAILS,
        version: '2',
      });
      if (isShadowed) {
        await call('POST', '/relay/v1/policy-bindings', {
          groupId: groups[0],
          groupVersion: '2',
          bindingLevel: 'TENANT',
          mode: 'SHADOW',
        });
      }
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
      await service.decide(input);
      return { call, input, candidate: groups[0] };
    };
    const plain = await tenant(false);
    const shadowed = await tenant(true);
    const rows: Measurement[] = [];
    // Alternated call by call, so the machine's load weighs on both alike.
    const [without, withShadow] = [[] as number[], [] as number[]];
    const alternated = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS + 500; i += 1) {
      for (const [input, latencies] of [
        [plain.input, without],
        [shadowed.input, withShadow],
      ] as const) {
        const t0 = process.hrtime.bigint();
        await service.decide(input);
        if (i >= 500) {
          latencies.push(Number(process.hrtime.bigint() - t0) / 1000);
        }
      }
    }
    const seconds = Number(process.hrtime.bigint() - alternated) / 2e9;
    const decide = summarize('decision service in-process, 5 bindings', without, seconds);
    rows.push(decide);
    rows.push(summarize('… with 1 SHADOW binding: the hop path', withShadow, seconds));
    rows.push(
      await sequential(
        '… its judgement, off the hop path (with the decision)',
        ITERATIONS,
        200,
        async () => service.judgeShadows(await service.decide(shadowed.input)),
      ),
    );
    const { call, candidate } = plain;

    const trail = recordedTrail(source, sink, JSON.stringify(msg.json));
    const queries = app.get<OwnerQueries>(OWNER_QUERIES);
    const stop = await queries.answer('RECORDED_HOPS', answerFrom(trail));
    const replayStarted = process.hrtime.bigint();
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
    const replaySeconds = Number(process.hrtime.bigint() - replayStarted) / 1e9;
    stop();
    if (read.status !== 'COMPLETED' || read.judged !== HOPS) {
      throw new Error(`replay ended ${String(read.status)}: ${JSON.stringify(read)}`);
    }
    const replayRate = Math.round(HOPS / replaySeconds);
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
      `a SHADOW binding adds ${(rows[1].p50Us - rows[0].p50Us).toFixed(1)} µs to a hop's decision p50 (its judgement runs after the hop: ${(rows[2].p50Us - rows[1].p50Us).toFixed(1)} µs more in all)\n`,
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
