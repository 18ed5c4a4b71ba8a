import { McpTestServer, connectMcpClient, eventually, startMcpTestServer } from '@agp/testing';

/** D22: a held echo request for "needs-review" (its answer passes), a blocked one for "forbidden", LOG otherwise. */
export const REVIEW_POLICY = `package console.guardrails

import rego.v1

decision := {"action": "BLOCK", "reasons": ["forbidden words"]} if {
\tcontains(input.message.text, "forbidden")
} else := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["needs a human"]} if {
\tinput.direction == "REQUEST"
\tcontains(input.message.text, "needs-review")
} else := {"action": "LOG"}
`;

export interface GovernedWorld {
  token: string;
  agentId: string;
  serverId: string;
  groupId: string;
  bindingId: string;
  /** Calls the echo tool as the agent; answers the tool's text or the JSON-RPC error's message. */
  echo(text: string): Promise<string>;
  /** The tenant's human-review requests and their status. */
  holds(): Promise<Array<{ id: string; status: string; note: string | null }>>;
  close(): Promise<void>;
}

/** An agent subscribed to an MCP server, with REVIEW_POLICY bound for the whole tenant. */
export async function governedWorld(
  base: string,
  admin: { tenant: string; email: string; password: string },
): Promise<GovernedWorld> {
  const token = await tokenOf(base, {
    grant_type: 'password',
    tenant: admin.tenant,
    username: admin.email,
    password: admin.password,
  });
  const tools: McpTestServer = await startMcpTestServer();
  const agent = await call<{ id: string; clientSecret: string }>(
    base,
    token,
    'POST',
    '/tenant-auth/v1/agents',
    { name: 'console-agent' },
  );
  await eventually(async () => call(base, token, 'GET', `/relay/v1/agents/${agent.id}`));
  const server = await call<{ id: string }>(base, token, 'POST', '/relay/v1/mcp-servers', {
    name: 'console-tools',
    url: tools.url,
    transport: 'STREAMABLE_HTTP',
  });
  await call(base, token, 'POST', '/relay/v1/subscriptions', {
    kind: 'AGENT_TO_MCP_SERVER',
    sourceId: agent.id,
    targetId: server.id,
  });
  const group = await call<{ id: string }>(base, token, 'POST', '/relay/v1/policy-groups', {
    name: 'guardrails',
  });
  await call(base, token, 'POST', `/relay/v1/policy-groups/${group.id}/versions`, {
    regoSource: REVIEW_POLICY,
  });
  const binding = await call<{ bindingId: string }>(
    base,
    token,
    'POST',
    '/relay/v1/policy-bindings',
    {
      groupId: group.id,
      bindingLevel: 'TENANT',
    },
  );
  // The held call waits for the person at the console, not D34's default 30 s.
  await call(base, token, 'PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 180 });
  const mcpToken = await tokenOf(base, {
    grant_type: 'client_credentials',
    client_id: agent.id,
    client_secret: agent.clientSecret,
    scope: 'mcp:call',
  });
  // Issue 17: any blocked hop in five minutes raises an alert, for the console's alert steps.
  await call(base, token, 'POST', '/audit/v1/monitors', {
    name: 'blocked traffic',
    monitorType: 'THRESHOLD',
    metric: 'BLOCKS',
    aggregation: 'SUM',
    window: 'LAST_5M',
    groupBy: 'NONE',
    comparison: 'ABOVE',
    threshold: 0,
    severity: 'HIGH',
  });
  return {
    token,
    agentId: agent.id,
    serverId: server.id,
    groupId: group.id,
    bindingId: binding.bindingId,
    echo: async (text) => {
      const sut = await connectMcpClient(`${base}/relay/mcp/${server.id}`, { token: mcpToken });
      try {
        const result = await sut.client.callTool({ name: 'echo', arguments: { text } }, undefined, {
          timeout: 120_000,
        });
        return JSON.stringify(result);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      } finally {
        await sut.close();
      }
    },
    holds: async () =>
      (
        await call<{ items: Array<{ id: string; status: string; note: string | null }> }>(
          base,
          token,
          'GET',
          '/relay/v1/hitl-requests',
        )
      ).items,
    close: () => tools.close(),
  };
}

export async function tokenOf(base: string, form: Record<string, string>): Promise<string> {
  const response = await fetch(`${base}/tenant-auth/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  if (response.status !== 200) {
    throw new Error(`token: ${response.status} ${await response.text()}`);
  }
  return ((await response.json()) as { access_token: string }).access_token;
}

export async function call<T = unknown>(
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
