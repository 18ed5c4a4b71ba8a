import 'reflect-metadata';

import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule } from '@agp/auth';
import { Database } from '@agp/database';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { RELAY_DATABASE } from '../src/database/tokens';
import { DiscoveryRepository } from '../src/discovery/discovery.repository';
import { DiscoveryFilters, Viewer } from '../src/discovery/discovery.types';
import { ListingsRepository } from '../src/marketplace/listings.repository';
import { RelayModule } from '../src/relay.module';
import { generateCatalogue } from '../test/support/agent-catalogue';
import { Measurement, sequential, table } from './measure';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);

/**
 * Issue 40: a search among 10,000 indexed agents (generated cards, one tenant), and among the same
 * cards as 10,000 marketplace listings (MK29), beside a plain
 * indexed lookup of one agent by id in the same run: in-process through the repository (one
 * tenant transaction each, as the service runs it) and over HTTP through the relay.
 */
async function main(): Promise<void> {
  const db = await createTestDatabase('relay_bench_discovery');
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
        SECRETS_KEY: randomBytes(32).toString('base64'),
      }),
    ],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const rows = await measure(app, issuer);
    process.stdout.write(
      `discovery, ${ENTRIES} agents, node ${process.version}, ${os.cpus().length} CPUs, ` +
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')}\n${table(rows)}\n`,
    );
  } finally {
    await app.close();
    await db.drop();
  }
}

async function measure(
  app: NestFastifyApplication,
  issuer: TestTokenIssuer,
): Promise<Measurement[]> {
  const database = app.get<Database>(RELAY_DATABASE);
  const tenantId = randomUUID();
  const catalogue = generateCatalogue(ENTRIES, 100);
  const repository = new DiscoveryRepository();
  const viewerId = catalogue.agents[0].id;
  const admin: Viewer = { kind: 'ADMIN' };
  const agent: Viewer = { kind: 'AGENT', agentId: viewerId };
  let n = 0;
  const nextQuery = (): DiscoveryFilters => catalogue.queries[n++ % catalogue.queries.length];
  const started = Date.now();
  for (let i = 0; i < catalogue.agents.length; i += 1_000) {
    await database.inTenant(tenantId, (tx) =>
      tx.query(
        `INSERT INTO relay.agents (id, tenant_id, name, status, visibility, agent_card)
         SELECT (a ->> 'id')::uuid, $1, a ->> 'name', 'ACTIVE',
                (ARRAY['PRIVATE', 'INTERNAL', 'PUBLIC'])[1 + (n % 3)], a -> 'card'
           FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(a, n)`,
        [tenantId, JSON.stringify(catalogue.agents.slice(i, i + 1_000))],
      ),
    );
  }
  process.stdout.write(`indexed ${ENTRIES} cards in ${Date.now() - started} ms\n`);
  // MK29: the same cards published as listings, searched by another tenant through the same code.
  for (let i = 0; i < catalogue.agents.length; i += 1_000) {
    await database.inTenant(tenantId, (tx) =>
      tx.query(
        `INSERT INTO relay.marketplace_listings
           (id, tenant_id, kind, target_id, name, summary, terms, document, search)
         SELECT gen_random_uuid(), $1, 'AGENT', (a ->> 'id')::uuid, a ->> 'name',
                a ->> 'description', '{"type":"FREE"}', a -> 'card', ''::tsvector
           FROM jsonb_array_elements($2::jsonb) a`,
        [tenantId, JSON.stringify(catalogue.agents.slice(i, i + 1_000))],
      ),
    );
  }
  await database.asSystem((tx) =>
    tx.query('ANALYZE relay.discovery_entries, relay.agents, relay.marketplace_listings'),
  );
  const listings = new ListingsRepository();
  const browserId = randomUUID();
  const searchListings = (): Promise<unknown> =>
    database.asSystem((tx) =>
      listings.search(tx, { tenantId: browserId, filters: nextQuery(), limit: 20 }),
    );

  const search = (viewer: Viewer, filters: () => DiscoveryFilters) => () =>
    database.inTenant(tenantId, (tx) =>
      repository.search(tx, tenantId, 'AGENT', viewer, filters(), 20),
    );
  const ids = catalogue.agents.map((a) => a.id);
  const lookup = (): Promise<unknown> =>
    database.inTenant(tenantId, (tx) =>
      tx.query(`SELECT id, name FROM relay.agents WHERE tenant_id = $1 AND id = $2`, [
        tenantId,
        ids[n++ % ids.length],
      ]),
    );

  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  // Long-lived: on a loaded machine the whole run can outlast the default 15 minutes.
  const adminToken = await issuer.token({
    tenantId,
    perms: ['REGISTRY:READ'],
    expiresInSec: 7_200,
  });
  const browserToken = await issuer.token({
    tenantId: browserId,
    perms: ['REGISTRY:READ'],
    expiresInSec: 7_200,
  });
  const agentToken = await issuer.token({
    tenantId,
    subject: viewerId,
    kind: 'AGENT',
    expiresInSec: 7_200,
  });
  const http = (token: string, path: () => string) => async (): Promise<void> => {
    const response = await fetch(`${base}${path()}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) {
      throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
    }
    await response.arrayBuffer();
  };
  const qPath = (): string =>
    `/relay/v1/discovery/agents?q=${encodeURIComponent(nextQuery().q ?? '')}`;

  const runs: Array<[string, () => unknown]> = [
    ['baseline: one agent by id (indexed), in a tenant transaction', lookup],
    ['search q (ranked), administrator, in-process', search(admin, nextQuery)],
    ['search q (ranked), agent viewer (visibility), in-process', search(agent, nextQuery)],
    ['search q + tag facet, in-process', search(admin, () => ({ ...nextQuery(), tag: 'finance' }))],
    ['search skill facet only (no q), in-process', search(admin, () => ({ skill: 'summarize' }))],
    [
      'baseline: GET /relay/v1/agents/{id} over HTTP',
      http(adminToken, () => `/relay/v1/agents/${ids[n++ % ids.length]}`),
    ],
    ['GET /relay/v1/discovery/agents?q=… over HTTP, administrator', http(adminToken, qPath)],
    ['GET /relay/v1/discovery/agents?q=… over HTTP, agent token', http(agentToken, qPath)],
    ['listings: search q (ranked), another tenant, in-process', searchListings],
    [
      'GET /relay/v1/marketplace/listings?q=… over HTTP, another tenant',
      http(
        browserToken,
        () => `/relay/v1/marketplace/listings?q=${encodeURIComponent(nextQuery().q ?? '')}`,
      ),
    ],
  ];
  const results: Measurement[] = [];
  for (const [label, run] of runs) {
    results.push(await sequential(label, ITERATIONS, WARMUP, run));
  }
  return results;
}

void main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
