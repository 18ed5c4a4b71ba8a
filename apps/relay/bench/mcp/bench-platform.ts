import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  createTestDatabase,
  freePort,
  uniqueNatsPrefix,
} from '@agp/testing';

import { ServiceProcess, bootstrapTenant, startService, stopService } from './platform-processes';

export type Json = Record<string, unknown>;

const BASE = 'http://agp.bench';

/** Where a bench arranges its tenant and sends its calls: the services, or the one process. */
export interface BenchTarget {
  /** What the agent calls: the gateway, or the one process that serves every prefix itself. */
  gatewayUrl: string;
  /** A token of the bench tenant's administrator. */
  adminToken(): Promise<string>;
}

/** The platform as production runs it: every service its own process, the gateway in front. */
export interface BenchPlatform extends BenchTarget {
  gatewayUrl: string;
  relayUrl: string;
  services: ServiceProcess[];
  database: TestDatabase;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startBenchPlatform(name: string): Promise<BenchPlatform> {
  const database = await createTestDatabase(`bench_${name}`);
  const prefix = uniqueNatsPrefix(`bench${name}`);
  const services: ServiceProcess[] = [];
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
    // D37: the relay refuses to start standalone without it.
    SECRETS_KEY: randomBytes(32).toString('base64'),
    TOKEN_RATE_LIMIT_PER_ADDRESS: '1000000',
    EGRESS_ALLOW_PRIVATE: 'true',
    TRUST_PROXY_HOPS: '1',
    AUTH_JWKS_URL: `http://127.0.0.1:${authPort}/tenant-auth/v1/.well-known/jwks.json`,
  };
  const stop = async (): Promise<void> => {
    for (const service of [...services].reverse()) {
      await stopService(service);
    }
    await database.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  };
  try {
    services.push(await startService('tenant-auth', authPort, env));
    services.push(await startService('relay', relayPort, env));
    services.push(await startService('audit', auditPort, env));
    services.push(
      await startService('api-gateway', gatewayPort, {
        ...env,
        TENANT_AUTH_URL: `http://127.0.0.1:${authPort}`,
        RELAY_URL: `http://127.0.0.1:${relayPort}`,
        AUDIT_URL: `http://127.0.0.1:${auditPort}`,
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  return {
    gatewayUrl,
    relayUrl: `http://127.0.0.1:${relayPort}`,
    services,
    database,
    env,
    stop,
    adminToken: () => bootstrappedAdmin(env, gatewayUrl),
  };
}

export async function api<T = Json>(
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

export async function token(gateway: string, form: Record<string, string>): Promise<string> {
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

export interface BenchTenant {
  adminToken: string;
  serverId: string;
  mcpToken: string;
  agentId: string;
}

/** The bench tenant's administrator's token. */
export function arrangeAdmin(target: BenchTarget): Promise<string> {
  return target.adminToken();
}

/** The `bench` tenant bootstrapped as an operator would (D11): its administrator's token. */
async function bootstrappedAdmin(env: Record<string, string>, gatewayUrl: string): Promise<string> {
  const out = join(tmpdir(), `agp-bench-${randomUUID()}.json`);
  await bootstrapTenant(env, 'bench', out);
  const admin = JSON.parse(readFileSync(out, 'utf8')) as { email: string; password: string };
  rmSync(out);
  return token(gatewayUrl, {
    grant_type: 'password',
    tenant: 'bench',
    username: admin.email,
    password: admin.password,
  });
}

/** An agent registered in tenant-auth, once the relay knows it (its AGENT_LIFECYCLE arrived). */
export async function registerAgent(
  gateway: string,
  adminToken: string,
  name: string,
): Promise<{ id: string; clientSecret: string }> {
  const agent = await api<{ id: string; clientSecret: string }>(
    gateway,
    adminToken,
    'POST',
    '/tenant-auth/v1/agents',
    { name },
  );
  for (let i = 0; ; i += 1) {
    const known = await fetch(`${gateway}/relay/v1/agents/${agent.id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (known.status === 200) {
      return agent;
    }
    if (i > 200) {
      throw new Error('the relay never learnt of the agent');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Each policy bound at TENANT level: every hop, both ways (D23). */
export async function bindAtTenant(
  gateway: string,
  adminToken: string,
  policies: string[],
): Promise<void> {
  for (const [i, regoSource] of policies.entries()) {
    const group = await api<{ id: string }>(
      gateway,
      adminToken,
      'POST',
      '/relay/v1/policy-groups',
      {
        name: `bench-${i}`,
      },
    );
    await api(gateway, adminToken, 'POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource,
    });
    await api(gateway, adminToken, 'POST', '/relay/v1/policy-bindings', {
      groupId: group.id,
      bindingLevel: 'TENANT',
    });
  }
}

/** An `mcp:call` token (audience `{base_url}/relay`, D8) of an agent. */
export function relayToken(
  gateway: string,
  agent: { id: string; clientSecret: string },
): Promise<string> {
  return token(gateway, {
    grant_type: 'client_credentials',
    client_id: agent.id,
    client_secret: agent.clientSecret,
    scope: 'mcp:call',
  });
}

/**
 * A tenant bootstrapped as an operator would (D11), one agent subscribed to the MCP server at
 * `serverUrl`, and each policy bound at TENANT level (every hop, both ways).
 */
export async function arrangeTenant(
  platform: BenchTarget,
  serverUrl: string,
  policies: string[],
): Promise<BenchTenant> {
  const gateway = platform.gatewayUrl;
  const adminToken = await arrangeAdmin(platform);
  const agent = await registerAgent(gateway, adminToken, 'bench-agent');
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
  await bindAtTenant(gateway, adminToken, policies);
  return {
    adminToken,
    serverId: server.id,
    mcpToken: await relayToken(gateway, agent),
    agentId: agent.id,
  };
}

/** A server of the tenant registered from `body`, the tenant's agent subscribed to it. */
async function arrangeSubscribedServer(
  platform: BenchTarget,
  tenant: BenchTenant,
  body: Record<string, unknown>,
): Promise<{ serverId: string; mcpToken: string }> {
  const gateway = platform.gatewayUrl;
  const server = await api<{ id: string }>(
    gateway,
    tenant.adminToken,
    'POST',
    '/relay/v1/mcp-servers',
    body,
  );
  await api(gateway, tenant.adminToken, 'POST', '/relay/v1/subscriptions', {
    kind: 'AGENT_TO_MCP_SERVER',
    sourceId: tenant.agentId,
    targetId: server.id,
  });
  return { serverId: server.id, mcpToken: tenant.mcpToken };
}

/** Issue 35: another server of the same tenant for the same agent (a 2026-07-28-only one). */
export function arrangeSecondServer(
  platform: BenchTarget,
  tenant: BenchTenant,
  serverUrl: string,
  name: string,
): Promise<{ serverId: string; mcpToken: string }> {
  return arrangeSubscribedServer(platform, tenant, {
    name,
    url: serverUrl,
    transport: 'STREAMABLE_HTTP',
  });
}

/** D52: a virtual server whose one member is the tenant's server, the same agent subscribed. */
export function arrangeVirtualServer(
  platform: BenchTarget,
  tenant: BenchTenant,
  prefix: string,
): Promise<{ serverId: string; mcpToken: string }> {
  return arrangeSubscribedServer(platform, tenant, {
    name: 'bench-virtual',
    transport: 'VIRTUAL',
    members: [{ serverId: tenant.serverId, prefix }],
  });
}
