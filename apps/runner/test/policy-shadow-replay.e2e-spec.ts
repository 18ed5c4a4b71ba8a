import { randomUUID } from 'node:crypto';

import { McpTestServer, eventually, startMcpTestServer } from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

/** The enforced version: every hop LOG. */
const ENFORCED = `package shadow.tools

import rego.v1

decision := {"action": "LOG", "reasons": ["seen"]}
`;

/** The candidate: the same, except that it blocks calls of one tool. */
const CANDIDATE = `package shadow.tools

import rego.v1

default decision := {"action": "LOG", "reasons": ["seen"]}

decision := {"action": "BLOCK", "reasons": ["get_config is off limits"]} if {
	input.direction == "REQUEST"
	input.tool.name == "get_config"
}
`;

interface DiffCount {
  enforcedAction: string;
  shadowAction: string;
  count: number;
}

interface Diff {
  compared: number;
  changed: number;
  counts: DiffCount[];
  samples: { items: Array<{ hopId: string; hop: Json; enforced: Json; shadow: Json }> };
}

interface AuditEvent {
  id: string;
  occurredAt: string;
  content?: string;
  details?: { toolName?: string; direction?: string; verdicts?: unknown[] };
}

/** What simulated traffic sends, one session: tools of which one the candidate would block. */
const SCRIPT: Array<[string, Json]> = [
  ['echo', { text: 'one' }],
  ['get_config', {}],
  ['echo', { text: 'two' }],
  ['echo', { text: 'three' }],
  ['get_config', {}],
  ['echo', { text: 'four' }],
];

/**
 * Issue 39 "Must show" (D49, D55, governance.md G7–G10): a candidate version that blocks one tool,
 * shadowed over simulated traffic and replayed over the recorded window; both reports agree with
 * a count made independently from the audit events, and what the agent received while shadowing
 * is byte for byte what it received before.
 */
describe('Shadow bindings and replay (services)', () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let serverId: string;
  let agent: TestAgent;

  beforeAll(async () => {
    platform = await startMcpPlatform('services');
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
    serverId = await world.mcpServer(tools.url);
    agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    await world.ok('PATCH', '/relay/v1/traffic-settings', { contentCapture: true });
    await world.ok('PUT', '/audit/v1/retention', { captureContent: true });
  }, 120_000);

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  /** One session through the relay running SCRIPT: each answer's bytes as the agent got them. */
  async function runScript(script = SCRIPT): Promise<string[]> {
    const post = (body: Json, session?: string) =>
      fetch(world.mcpUrl(serverId), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${agent.mcpToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 's', version: '1' },
      },
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    const answers: string[] = [];
    for (const [i, [name, args]] of script.entries()) {
      const answer = await post(
        { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } },
        session,
      );
      answers.push(`${answer.status} ${dataOf(await answer.text())}`);
    }
    return answers;
  }

  /** The COMMUNICATION_AUDIT events of decided hops in [from, to), read from the audit API. */
  async function decidedHops(from: string, to: string): Promise<AuditEvent[]> {
    const events: AuditEvent[] = [];
    let cursor: string | undefined;
    do {
      const page = await world.ok<{ items: AuditEvent[]; nextCursor?: string }>(
        'GET',
        `/audit/v1/events?eventType=COMMUNICATION_AUDIT&from=${from}&pageSize=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
      events.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return events.filter(
      (e) => e.details?.verdicts !== undefined && e.occurredAt >= from && e.occurredAt < to,
    );
  }

  /** Counted from the audit events alone: what the candidate changes is each get_config request. */
  function independentCounts(events: AuditEvent[]): DiffCount[] {
    const blocked = events.filter(
      (e) => e.details?.toolName === 'get_config' && e.details?.direction === 'REQUEST',
    ).length;
    return [
      { enforcedAction: 'LOG', shadowAction: 'BLOCK', count: blocked },
      { enforcedAction: 'LOG', shadowAction: 'LOG', count: events.length - blocked },
    ].filter((c) => c.count > 0);
  }

  const sorted = (counts: DiffCount[]) =>
    [...counts].sort((a, b) =>
      `${a.enforcedAction}${a.shadowAction}`.localeCompare(`${b.enforcedAction}${b.shadowAction}`),
    );

  async function settledHops(from: string, to: string, count: number): Promise<AuditEvent[]> {
    return eventually(async () => {
      const events = await decidedHops(from, to);
      expect(events.length).toBe(count);
      return events;
    });
  }

  async function replay(
    groupId: string,
    body: Json,
  ): Promise<Json & { replayId: string; result: Diff }> {
    const created = await world.ok<{ replayId: string }>(
      'POST',
      `/relay/v1/policy-groups/${groupId}/versions/2/replays`,
      body,
    );
    return eventually(async () => {
      const read = await world.ok<Json & { replayId: string; status: string; result: Diff }>(
        'GET',
        `/relay/v1/policy-groups/${groupId}/versions/2/replays/${created.replayId}`,
      );
      expect(read).toMatchObject({ status: 'COMPLETED' });
      return read;
    }, 600);
  }

  it('should agree with the audit trail in the shadow report and the replay, and leave delivered traffic unchanged', async () => {
    const group = await world.ok<{ id: string }>('POST', '/relay/v1/policy-groups', {
      name: `candidate-${randomUUID().slice(0, 8)}`,
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: ENFORCED,
      version: '1',
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: CANDIDATE,
      version: '2',
    });
    const enforced = await world.ok<{ bindingId: string }>('POST', '/relay/v1/policy-bindings', {
      groupId: group.id,
      groupVersion: '1',
      bindingLevel: 'AGENT',
      agentId: agent.id,
    });
    const before = await runScript();

    const shadow = await world.ok<{ bindingId: string; mode: string }>(
      'POST',
      '/relay/v1/policy-bindings',
      {
        groupId: group.id,
        groupVersion: '2',
        bindingLevel: 'AGENT',
        agentId: agent.id,
        mode: 'SHADOW',
      },
    );
    const from = new Date().toISOString();
    const during = [await runScript(), await runScript()];
    const to = new Date(Date.now() + 1).toISOString();
    // Per session: initialize and its answer, the initialized notification, each call both ways.
    const hopsPerRun = 3 + SCRIPT.length * 2;
    const events = await settledHops(from, to, 2 * hopsPerRun);
    const expected = sorted(independentCounts(events));
    const report = await eventually(async () => {
      const read = await world.ok<Diff>(
        'GET',
        `/relay/v1/policy-bindings/${shadow.bindingId}/shadow-report?from=${from}&to=${to}`,
      );
      expect(read.compared).toBe(events.length);
      return read;
    });
    const replayed = await replay(group.id, { from, to, bindingId: enforced.bindingId });

    expect(shadow.mode).toBe('SHADOW');
    expect(during).toEqual([before, before]);
    expect(expected).toContainEqual({ enforcedAction: 'LOG', shadowAction: 'BLOCK', count: 4 });
    expect(sorted(report.counts)).toEqual(expected);
    expect(sorted(replayed.result.counts)).toEqual(expected);
    expect(replayed).toMatchObject({ judged: events.length, unreplayable: 0 });
    expect(report.samples.items.map((s) => s.hopId).sort()).toEqual(
      replayed.result.samples.items.map((s) => s.hopId).sort(),
    );
    expect(report.samples.items[0]).toMatchObject({
      hop: { toolName: 'get_config', direction: 'REQUEST' },
      enforced: { action: 'LOG', policyIds: [group.id] },
      shadow: { action: 'BLOCK', reasons: ['get_config is off limits'] },
    });
  });

  it('should count hops recorded with their digest only as unreplayable, never judge them', async () => {
    const group = await world.ok<{ id: string }>('POST', '/relay/v1/policy-groups', {
      name: `digest-${randomUUID().slice(0, 8)}`,
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: ENFORCED,
      version: '1',
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: CANDIDATE,
      version: '2',
    });
    const from = new Date().toISOString();
    await runScript();
    await world.ok('PATCH', '/relay/v1/traffic-settings', { contentCapture: false });
    try {
      await runScript();
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { contentCapture: true });
    }
    const to = new Date(Date.now() + 1).toISOString();
    const hopsPerRun = 3 + SCRIPT.length * 2;
    const events = await settledHops(from, to, 2 * hopsPerRun);

    const replayed = await replay(group.id, { from, to, filters: { endpointIds: [serverId] } });

    // Counted from the trail: the hops it holds with their digest only (capture was off).
    const digestOnly = events.filter((e) => !e.content).length;
    expect(digestOnly).toBeGreaterThan(0);
    expect(replayed).toMatchObject({
      scanned: 2 * hopsPerRun,
      judged: 2 * hopsPerRun - digestOnly,
      unreplayable: digestOnly,
      placement: { bindingLevel: 'TENANT', replaces: [] },
    });
    expect(replayed.result.compared).toBe(2 * hopsPerRun - digestOnly);
    // A finished replay cannot be cancelled.
    expect(
      (
        await world.api(
          'POST',
          `/relay/v1/policy-groups/${group.id}/versions/2/replays/${replayed.replayId}/cancel`,
        )
      ).status,
    ).toBe(409);
  });

  it("should judge a replay's candidate with the tenant's pattern sets, as a live hop (GR39)", async () => {
    const set = `replay-${randomUUID().slice(0, 8)}`;
    await world.ok('POST', '/relay/v1/detection-patterns', {
      set,
      label: 'REPLAY_MARKER',
      pattern: 'RPL-[0-9]{4}',
    });
    const group = await world.ok<{ id: string }>('POST', '/relay/v1/policy-groups', {
      name: `patterns-${randomUUID().slice(0, 8)}`,
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: ENFORCED,
      version: '1',
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: `package shadow.patterns

import rego.v1

default decision := {"action": "LOG", "reasons": ["seen"]}

decision := {"action": "BLOCK", "reasons": ["a replay marker"]} if {
	count(agp.detect.patterns(input.message.text, "${set}")) > 0
}
`,
      version: '2',
    });
    const from = new Date().toISOString();
    await runScript([
      ['echo', { text: 'order RPL-1234' }],
      ['echo', { text: 'nothing here' }],
    ]);
    const to = new Date(Date.now() + 1).toISOString();
    const events = await settledHops(from, to, 3 + 2 * 2);

    const replayed = await replay(group.id, { from, to, filters: { endpointIds: [serverId] } });

    // The marker's call and its echo: each hop holding the set's pattern.
    expect(sorted(replayed.result.counts)).toEqual([
      { enforcedAction: 'LOG', shadowAction: 'BLOCK', count: 2 },
      { enforcedAction: 'LOG', shadowAction: 'LOG', count: events.length - 2 },
    ]);
  });

  it('should promote a shadow binding by moving the enforcing binding to its version, as operation 7 does', async () => {
    const other = await world.agent();
    await world.subscribe(other.id, serverId);
    const group = await world.ok<{ id: string }>('POST', '/relay/v1/policy-groups', {
      name: `promote-${randomUUID().slice(0, 8)}`,
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: ENFORCED,
      version: '1',
    });
    await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
      regoSource: CANDIDATE,
      version: '2',
    });
    const enforced = await world.ok<{ bindingId: string }>('POST', '/relay/v1/policy-bindings', {
      groupId: group.id,
      groupVersion: '1',
      bindingLevel: 'AGENT',
      agentId: other.id,
    });
    const shadow = await world.ok<{ bindingId: string }>('POST', '/relay/v1/policy-bindings', {
      groupId: group.id,
      groupVersion: '2',
      bindingLevel: 'AGENT',
      agentId: other.id,
      mode: 'SHADOW',
    });

    const promoted = await world.ok<Json>(
      'POST',
      `/relay/v1/policy-bindings/${shadow.bindingId}/promote`,
      undefined,
      200,
    );
    const again = await world.api('POST', `/relay/v1/policy-bindings/${shadow.bindingId}/promote`);
    const enforcedAgain = await world.api(
      'POST',
      `/relay/v1/policy-bindings/${enforced.bindingId}/promote`,
    );
    const badRate = await world.api('PATCH', '/relay/v1/traffic-settings', {
      shadowSampleRate: 1.5,
    });
    const now = new Date().toISOString();
    const refused = await Promise.all([
      world.api('GET', `/relay/v1/policy-bindings/${randomUUID()}/shadow-report`),
      world.api(
        'GET',
        `/relay/v1/policy-bindings/${enforced.bindingId}/shadow-report?from=${now}&to=${now}`,
      ),
      world.api('POST', `/relay/v1/policy-groups/${group.id}/versions/9/replays`, {
        from: now,
        to: now,
      }),
      world.api('POST', `/relay/v1/policy-groups/${group.id}/versions/2/replays`, {
        from: '2026-01-01T00:00:00Z',
        to: now,
      }),
      world.api('POST', `/relay/v1/policy-groups/${group.id}/versions/2/replays`, {
        from: '2026-12-01T00:00:00Z',
        to: now,
        bindingId: randomUUID(),
      }),
      world.api('POST', `/relay/v1/policy-groups/${group.id}/versions/2/replays`, {
        from: 'yesterday',
        to: now,
        filters: { protocols: ['SMTP'] },
      }),
      world.api('GET', `/relay/v1/policy-groups/${group.id}/versions/2/replays/${randomUUID()}`),
    ]);

    expect(promoted).toMatchObject({
      bindingId: enforced.bindingId,
      groupVersion: '2',
      mode: 'ENFORCE',
    });
    expect(again.status).toBe(404);
    expect(enforcedAgain.status).toBe(409);
    expect(badRate.status).toBe(400);
    expect(refused.map((r) => r.status)).toEqual([404, 400, 400, 400, 400, 400, 404]);
    expect(JSON.stringify(refused[5].body)).toContain('filters.protocols');
  });
});

/** The JSON-RPC message of an answer, whether sent as JSON or as one SSE event. */
function dataOf(text: string): string {
  const lines = text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6);
  return lines.length > 0 ? lines.map((line) => line.slice(6)).join('\n') : text;
}
