import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { TokenVerifier } from '@agp/auth';
import { deleteNatsStreams } from '@agp/messaging/testing';
import { TEST_NATS_URL, TestTokenIssuer, createTestDatabase, uniqueNatsPrefix } from '@agp/testing';
import { Pool } from 'undici';

import { LatencyReport, fixedRate, maxThroughput } from './load';
import { startProcess, waitReady } from './processes';

const TENANT_AUTH_PORT = 18_310;
const VERIFIED_PORT = 18_311;
const UNVERIFIED_PORT = 18_312;
const BASE_URL = 'http://bench.agp.test';
const TENANT_AUTH_DIST = join(__dirname, '..', '..', '..', 'tenant-auth', 'dist');

async function json(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}${path}`, init);
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) {
    throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  }
  return body;
}

/** Closed loop of client_credentials grants straight at tenant-auth: tokens issued per second. */
async function issuance(
  origin: string,
  form: string,
  seconds: number,
  concurrency = 16,
): Promise<LatencyReport> {
  const pool = new Pool(origin, { connections: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(seconds * 1e9);
  const worker = async (): Promise<void> => {
    while (process.hrtime.bigint() < deadline) {
      const sent = process.hrtime.bigint();
      const response = await pool.request({
        method: 'POST',
        path: '/tenant-auth/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      await response.body.dump();
      latencies.push(Number(process.hrtime.bigint() - sent) / 1000);
      errors += response.statusCode === 200 ? 0 : 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return {
    label: `token issuance, closed loop x${concurrency}`,
    requests: latencies.length,
    errors,
    ratePerSec: latencies.length / elapsed,
    p50Us: at(50),
    p99Us: at(99),
  };
}

/** In-process cost of TokenVerifier.verify: a token seen before (cache) and fresh tokens (ES256 each). */
async function verifierCost(): Promise<string[]> {
  const issuer = await TestTokenIssuer.create();
  const verifier = new TokenVerifier(issuer.authOptions());
  const tenantId = randomUUID();
  const one = await issuer.token({ tenantId });
  const fresh = await Promise.all(Array.from({ length: 2_000 }, () => issuer.token({ tenantId })));
  await verifier.verify(one, issuer.baseUrl);
  let start = process.hrtime.bigint();
  for (let i = 0; i < 100_000; i += 1) {
    await verifier.verify(one, issuer.baseUrl);
  }
  const cachedUs = Number(process.hrtime.bigint() - start) / 1000 / 100_000;
  start = process.hrtime.bigint();
  for (const token of fresh) {
    await verifier.verify(token, issuer.baseUrl);
  }
  const freshUs = Number(process.hrtime.bigint() - start) / 1000 / fresh.length;
  return [
    `TokenVerifier.verify, cached token: ${cachedUs.toFixed(2)} µs/op`,
    `TokenVerifier.verify, new token (ES256 verify): ${freshUs.toFixed(1)} µs/op`,
  ];
}

/**
 * Issue 4's scenarios, in the same run as the proxy's: the same GET with a valid token through the
 * verifying gateway and through the same gateway without verification; and token issuance per second.
 */
export async function runAuthBench(
  serviceOrigin: string,
  seconds: number,
  rate: number,
): Promise<{ reports: LatencyReport[]; notes: string[] }> {
  const database = await createTestDatabase('bench_auth');
  const prefix = uniqueNatsPrefix('bench');
  const out = join(tmpdir(), `agp-bench-${randomUUID()}.json`);
  const env = {
    PUBLIC_BASE_URL: BASE_URL,
    DATABASE_URL: database.url,
    NATS_URL: TEST_NATS_URL,
    NATS_PREFIX: prefix,
    KEY_ENCRYPTION_SECRET: 'bench-'.repeat(8),
    LOG_LEVEL: 'warn',
    TOKEN_RATE_LIMIT_PER_CLIENT: '100000000',
    TOKEN_RATE_LIMIT_PER_ADDRESS: '100000000',
  };
  const tenantAuthOrigin = `http://127.0.0.1:${TENANT_AUTH_PORT}`;
  const gatewayEnv = {
    ...env,
    TENANT_AUTH_URL: tenantAuthOrigin,
    AUDIT_URL: serviceOrigin,
    RELAY_URL: serviceOrigin,
  };
  const tenantAuth = startProcess(join(TENANT_AUTH_DIST, 'main.js'), [], {
    ...env,
    PORT: String(TENANT_AUTH_PORT),
  });
  const verified = startProcess(join(__dirname, '..', 'src', 'main.js'), [], {
    ...gatewayEnv,
    PORT: String(VERIFIED_PORT),
  });
  const unverified = startProcess(join(__dirname, 'gateway-unverified.js'), [], {
    ...gatewayEnv,
    PORT: String(UNVERIFIED_PORT),
  });
  try {
    await waitReady(`${tenantAuthOrigin}/health/ready`);
    await waitReady(`http://127.0.0.1:${VERIFIED_PORT}/health/live`);
    await waitReady(`http://127.0.0.1:${UNVERIFIED_PORT}/health/live`);
    // The bootstrap command of D11, as an operator would run it.
    execFileSync(
      process.execPath,
      [
        join(TENANT_AUTH_DIST, 'bootstrap.js'),
        '--tenant',
        'bench',
        '--email',
        'admin@bench.example',
        '--out',
        out,
      ],
      {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      },
    );
    const admin = JSON.parse(readFileSync(out, 'utf8')) as { password: string };
    const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    const adminToken = await json(tenantAuthOrigin, '/tenant-auth/v1/oauth/token', {
      method: 'POST',
      headers: formHeaders,
      body: form({
        grant_type: 'password',
        tenant: 'bench',
        username: 'admin@bench.example',
        password: admin.password,
      }),
    });
    const agent = await json(tenantAuthOrigin, '/tenant-auth/v1/agents', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${String(adminToken.access_token)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        name: 'bench-agent',
        permissions: [{ entity: 'AUDIT', permission: 'READ' }],
      }),
    });
    const grant = form({
      grant_type: 'client_credentials',
      client_id: String(agent.id),
      client_secret: String(agent.clientSecret),
    });
    const token = await json(tenantAuthOrigin, '/tenant-auth/v1/oauth/token', {
      method: 'POST',
      headers: formHeaders,
      body: grant,
    });
    const headers = { authorization: `Bearer ${String(token.access_token)}` };
    const path = '/audit/v1/bench/ping';
    const withToken = `http://127.0.0.1:${VERIFIED_PORT}`;
    const without = `http://127.0.0.1:${UNVERIFIED_PORT}`;
    await fixedRate('warm-up', withToken, path, rate, 2, headers);
    await fixedRate('warm-up', without, path, rate, 2, headers);

    const reports: LatencyReport[] = [];
    for (const round of [1, 2]) {
      reports.push(
        await fixedRate(
          `no verification @${rate}/s (r${round})`,
          without,
          path,
          rate,
          seconds,
          headers,
        ),
      );
      reports.push(
        await fixedRate(
          `valid token @${rate}/s (r${round})`,
          withToken,
          path,
          rate,
          seconds,
          headers,
        ),
      );
    }
    // Closed loop in alternating order (A B B A), so a machine that gets busier or quieter during the
    // run weighs on both sides alike.
    const closed: LatencyReport[] = [];
    for (const [label, origin] of [
      ['no verification', without],
      ['valid token', withToken],
      ['valid token', withToken],
      ['no verification', without],
    ] as const) {
      closed.push(await maxThroughput(`${label}, closed x32`, origin, path, seconds, 32, headers));
    }
    reports.push(...closed, await issuance(tenantAuthOrigin, grant, seconds));
    const mean = (label: string): number => {
      const rates = closed.filter((r) => r.label.startsWith(label)).map((r) => r.ratePerSec);
      return rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
    };
    const cost = (1 - mean('valid token') / mean('no verification')) * 100;
    const notes = [
      `verification costs ${cost.toFixed(1)}% of the gateway's closed-loop throughput (goal ≤ 10%)`,
      ...(await verifierCost()),
    ];
    return { reports, notes };
  } finally {
    for (const child of [verified, unverified, tenantAuth]) {
      child.kill('SIGTERM');
    }
    rmSync(out, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  }
}
