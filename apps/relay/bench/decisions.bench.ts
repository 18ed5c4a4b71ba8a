import 'reflect-metadata';

import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';

import { AuthModule } from '@agp/auth';
import { Database } from '@agp/database';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { DecisionInput } from '../src/decisions/decision.types';
import { PolicyDecisionService } from '../src/decisions/policy-decision.service';
import { PolicyEngine } from '../src/decisions/policy-engine';
import { RELAY_DATABASE } from '../src/database/tokens';
import { RelayModule } from '../src/relay.module';
import { TenantsRepository } from '../src/tenants/tenants.repository';
import { GUARDRAILS, PII, REVIEW, SECRETS, WORDS } from '../test/support/policies';
import { Measurement, closedLoop, sequential, table } from './measure';

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
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);

/** A tools/call of about 4 KB: customer records, one SSN in the note (so the MASK path runs). */
function message(): { json: unknown; text: string } {
  const records = Array.from({ length: 31 }, (_v, i) => ({
    id: `cust-${i}`,
    name: `Customer number ${i}`,
    city: 'Springfield',
    tier: i % 3 === 0 ? 'gold' : 'silver',
    notes: 'prefers e-mail contact during office hours',
  }));
  const json = {
    params: {
      name: 'lookup_customer',
      arguments: { note: 'please check 123-45-6789 before the call', records },
    },
  };
  const strings: string[] = [];
  JSON.stringify(json, (_k, v: unknown) => (typeof v === 'string' ? (strings.push(v), v) : v));
  return { json, text: strings.join('\n') };
}

async function main(): Promise<void> {
  const db = await createTestDatabase('relay_bench');
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
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const tenantId = randomUUID();
    // The tenant as tenant-auth's TENANT_LIFECYCLE would have projected it: the relay runs alone
    // here, so nothing would answer its TENANT_IDENTITY question (issue 30's read-your-writes).
    await app
      .get<Database>(RELAY_DATABASE)
      .asSystem((tx) =>
        app.get(TenantsRepository).upsert(tx, { tenantId, slug: 'bench', status: 'ACTIVE' }),
      );
    const token = await issuer.token({ tenantId, perms: ['TENANT:ADMIN'] });
    const call = async (
      method: string,
      url: string,
      body: unknown,
    ): Promise<Record<string, unknown>> => {
      const response = await app.inject({
        method: method as 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      if (response.statusCode >= 300) {
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      }
      return JSON.parse(response.body) as Record<string, unknown>;
    };
    for (const [name, regoSource] of Object.entries(POLICIES)) {
      const group = await call('POST', '/relay/v1/policy-groups', { name, data: DATA[name] ?? {} });
      await call('POST', `/relay/v1/policy-groups/${String(group.id)}/versions`, { regoSource });
      await call('POST', '/relay/v1/policy-bindings', {
        groupId: group.id,
        bindingLevel: 'TENANT',
      });
    }

    const msg = message();
    const source = {
      type: 'AGENT' as const,
      id: randomUUID(),
      name: 'billing-agent',
      riskTier: 'HIGH',
    };
    const sink = { type: 'MCP_SERVER' as const, id: randomUUID(), name: 'crm-tools' };
    const input: DecisionInput = {
      tenant: { id: tenantId },
      protocol: 'MCP',
      direction: 'REQUEST',
      source,
      sink,
      method: 'tools/call',
      tool: { name: 'lookup_customer' },
      message: msg,
      time: new Date().toISOString(),
    };
    const bytes = Buffer.byteLength(JSON.stringify(msg.json));

    const service = app.get(PolicyDecisionService);
    const sample = await service.decide(input);
    if (sample.bindings.length !== 5 || sample.action !== 'MASK') {
      throw new Error(
        `unexpected decision: ${sample.action} with ${sample.bindings.length} bindings`,
      );
    }

    const engine = new PolicyEngine();
    const compiled = Object.entries(POLICIES).map(([name, source]) =>
      engine.compile(source, DATA[name] ?? {}),
    );
    const rows: Measurement[] = [];
    rows.push(
      await sequential('raw engine: input conversion + 5 evaluations', ITERATIONS, 2_000, () => {
        const prepared = engine.prepareInput(input);
        for (const policy of compiled) {
          policy.evaluate(prepared, { timeoutMs: 50 });
        }
      }),
    );
    const prepared = engine.prepareInput(input);
    rows.push(
      await sequential(
        'raw engine: 1 evaluation (guardrails), input prepared',
        ITERATIONS,
        2_000,
        () => compiled[0].evaluate(prepared, { timeoutMs: 50 }),
      ),
    );
    rows.push(
      await sequential('decision service in-process, 5 bindings', ITERATIONS, 2_000, () =>
        service.decide(input),
      ),
    );

    const { port } = app.getHttpServer().address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const body = JSON.stringify({
      protocol: 'MCP',
      direction: 'REQUEST',
      source: { type: 'AGENT', id: source.id },
      sink: { type: 'MCP_SERVER', id: sink.id },
      method: 'tools/call',
      tool: { name: 'lookup_customer' },
      message: { json: msg.json },
    });
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const req = request(
          {
            agent,
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/relay/v1/policy-decisions',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    for (let i = 0; i < 500; i += 1) {
      await post();
    }
    rows.push(await closedLoop('POST /relay/v1/policy-decisions, 1 caller', 1, HTTP_SECONDS, post));
    rows.push(
      await closedLoop('POST /relay/v1/policy-decisions, 16 callers', 16, HTTP_SECONDS, post),
    );
    agent.destroy();

    process.stdout.write(`relay decision benchmark — ${new Date().toISOString()}\n`);
    process.stdout.write(
      `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, message ${bytes} bytes of JSON, 5 TENANT bindings (${Object.keys(POLICIES).join(', ')}), decision ${sample.action}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n\n`,
    );
    process.stdout.write(`${table(rows)}\n`);
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
