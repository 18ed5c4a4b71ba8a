import { randomUUID } from 'node:crypto';

import { A2A_TEST_SSN, A2aTestAgent, eventually, startA2aTestAgent } from '@agp/testing';

import { HumanWorld, TestPerson, answerText, messageSend } from './human/human-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { LOG_POLICY, MASK_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

/** Holds a person's request that asks for a wire transfer (D34). */
const HOLD_POLICY = `package human.hold

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["payments need a reviewer"]} if {
	input.direction == "REQUEST"
	input.source.type == "USER"
	contains(input.message.text, "wire transfer")
}
`;

/**
 * Issue 33 § 1 (D43, D56): a signed-in person talks to an agent through `/relay/human/{agentId}`
 * with the A2A methods and their own token, behind the gateway as in production. Both directions
 * are hops of the one pipeline with the person as the party (traffic.md T60): judged, held,
 * masked, audited, kill-switched.
 */
describe('people to agents: /relay/human/{agentId}', () => {
  let platform: McpPlatform;
  let agent: A2aTestAgent;
  let world: McpWorld;
  let humans: HumanWorld;

  beforeAll(async () => {
    platform = await startMcpPlatform('services');
    agent = await startA2aTestAgent({ legacyCompat: true });
    world = await McpWorld.create(platform);
    humans = new HumanWorld(world);
  });

  afterAll(async () => {
    await agent?.close();
    await platform?.close();
  });

  /** A target agent (the test agent's card), a person subscribed to it, a policy on the agent. */
  async function pair(policy?: string): Promise<{ person: TestPerson; target: TestAgent }> {
    const target = await world.agent();
    await world.ok('PATCH', `/relay/v1/agents/${target.id}`, { agentCardUrl: agent.cardUrl });
    const person = await humans.person();
    await humans.subscribe(person.id, target.id);
    if (policy) {
      await world.bindToAgent(target.id, policy);
    }
    return { person, target };
  }

  function received(marker: string): string[] {
    return agent.received.filter((m) => m.text.includes(marker)).map((m) => m.text);
  }

  it('should carry a person’s message/send to the agent and its answer back, both hops audited with the person as the party', async () => {
    const { person, target } = await pair(LOG_POLICY);
    const correlationId = randomUUID();
    const marker = randomUUID();

    const sut = await humans.post(person.token, target.id, messageSend(`hello ${marker}`), {
      'x-correlation-id': correlationId,
    });
    const reachable = await fetch(`${world.platform.baseUrl}/relay/human`, {
      headers: { authorization: `Bearer ${person.token}` },
    }).then((r) => r.json() as Promise<Json>);

    expect(sut.status).toBe(200);
    expect(sut.body).toMatchObject({ id: 1, result: { status: { state: 'completed' } } });
    expect(answerText(sut.body)).toBe(`echo: hello ${marker}`);
    expect(received(marker)).toEqual([`hello ${marker}`]);
    // D37: the person's token never travels to the agent.
    const seen = agent.received.find((m) => m.text.includes(marker))!;
    expect(seen.headers.authorization).toBeUndefined();
    expect(reachable).toMatchObject({
      total: 1,
      items: [{ id: target.id, name: target.name, relayPath: `/relay/human/${target.id}` }],
    });
    const trace = await world.trace(
      correlationId,
      (items) => items.filter((e) => e.eventType === 'COMMUNICATION_AUDIT').length >= 2,
    );
    const hops = trace.filter((e) => e.eventType === 'COMMUNICATION_AUDIT');
    const request = hops.find((e) => (e.details as Json).direction === 'REQUEST')!;
    const response = hops.find((e) => (e.details as Json).direction === 'RESPONSE')!;
    expect(request).toMatchObject({
      protocol: 'JSONRPC',
      action: 'LOG',
      actor: expect.objectContaining({ type: 'USER', id: person.id }),
      source: expect.objectContaining({ type: 'USER', id: person.id }),
      sink: expect.objectContaining({ type: 'AGENT', id: target.id }),
      details: expect.objectContaining({ a2a: true, method: 'message/send' }),
    });
    expect(response).toMatchObject({
      source: expect.objectContaining({ type: 'AGENT', id: target.id }),
      sink: expect.objectContaining({ type: 'USER', id: person.id }),
    });
  });

  it('should stream a person’s message/stream events back, each judged as a hop to the person', async () => {
    const { person, target } = await pair(LOG_POLICY);
    const correlationId = randomUUID();
    const marker = randomUUID();

    const response = await fetch(humans.humanUrl(target.id), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${person.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'x-correlation-id': correlationId,
      },
      body: JSON.stringify({ ...messageSend(`stream ${marker}`), method: 'message/stream' }),
    });
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as Json);

    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(JSON.stringify(events)).toContain(`echo: stream ${marker}`);
    expect(events.at(-1)).toMatchObject({ result: { status: { state: 'completed' } } });
    const trace = await world.trace(
      correlationId,
      (items) =>
        items.filter((e) => (e.details as Json).direction === 'RESPONSE').length >= events.length,
    );
    const answers = trace.filter((e) => (e.details as Json).direction === 'RESPONSE');
    for (const answer of answers) {
      expect(answer).toMatchObject({
        sink: expect.objectContaining({ type: 'USER', id: person.id }),
      });
    }
  });

  it('should refuse a person not subscribed (403), a bad token (401), an agent token (403) and a person’s token on the agents’ path (401), nothing reaching the agent', async () => {
    const { target } = await pair();
    const stranger = await humans.person();
    const caller = await world.agent();
    const correlationId = randomUUID();
    const before = agent.requestCount();

    const notSubscribed = await humans.post(stranger.token, target.id, messageSend('hi'), {
      'x-correlation-id': correlationId,
    });
    const badToken = await humans.post(
      `${stranger.token.slice(0, -4)}AAAA`,
      target.id,
      messageSend('hi'),
    );
    const noToken = await fetch(humans.humanUrl(target.id), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(messageSend('hi')),
    });
    const agentToken = await humans.post(caller.apiToken, target.id, messageSend('hi'));
    const agentsPath = await fetch(`${world.platform.baseUrl}/relay/a2a/${target.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stranger.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(messageSend('hi')),
    });

    expect(notSubscribed.status).toBe(403);
    expect(notSubscribed.body).toMatchObject({
      status: 403,
      detail: `user ${stranger.id} is not subscribed to agent ${target.id}`,
    });
    expect(badToken.status).toBe(401);
    expect(noToken.status).toBe(401);
    expect(agentToken.status).toBe(403);
    expect(agentsPath.status).toBe(401);
    expect(agent.requestCount()).toBe(before);
    const trace = await world.trace(correlationId, 1);
    expect(trace[0]).toMatchObject({
      action: 'BLOCK',
      actor: expect.objectContaining({ type: 'USER', id: stranger.id }),
    });
  });

  it('should mask an SSN both ways: the agent never sees the person’s, the person never sees the agent’s', async () => {
    const { person, target } = await pair(MASK_POLICY);
    const marker = randomUUID();

    const mine = await humans.post(
      person.token,
      target.id,
      messageSend(`${marker} my SSN is ${A2A_TEST_SSN}`),
    );
    const theirs = await humans.post(person.token, target.id, messageSend(`customer ${marker}`, 2));

    expect(received(marker).join('\n')).not.toContain(A2A_TEST_SSN);
    expect(received(marker)[0]).toContain(`${marker} my SSN is`);
    expect(answerText(mine.body)).not.toContain(A2A_TEST_SSN);
    expect(answerText(theirs.body)).toContain('Ada Example, SSN');
    expect(answerText(theirs.body)).not.toContain(A2A_TEST_SSN);
  });

  it('should hold a person’s message for a reviewer and deliver it once after approval', async () => {
    const { person, target } = await pair(HOLD_POLICY);
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
    try {
      const marker = randomUUID();
      const body = messageSend(`wire transfer ${marker}`, 1, marker);

      const held = await humans.post(person.token, target.id, body);
      const data = (held.body.error as Json).data as Json;
      const hitlRequestId = String(data.hitlRequestId);
      const hold = await world.ok<Json>('GET', `/relay/v1/hitl-requests/${hitlRequestId}`);
      await world.ok('POST', `/relay/v1/hitl-requests/${hitlRequestId}/approve`, {}, 200);
      const resend = { 'x-agp-hitl-request-id': hitlRequestId };
      const released = await humans.post(person.token, target.id, { ...body, id: 2 }, resend);
      const again = await humans.post(person.token, target.id, { ...body, id: 3 }, resend);

      expect(held.body).toMatchObject({
        id: 1,
        error: { code: -31004, data: { agpCode: 'review_pending' } },
      });
      expect(hold).toMatchObject({ status: 'PENDING' });
      expect(JSON.stringify(hold)).toContain(person.id);
      expect(released.body).toMatchObject({ id: 2, result: { status: { state: 'completed' } } });
      expect(received(marker)).toEqual([`wire transfer ${marker}`]);
      expect(again.body).toMatchObject({ id: 3, error: { code: -31001 } });
      expect(received(marker)).toHaveLength(1);
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 30 });
    }
  });

  it('should refuse a person’s messages while a kill switch on the agent is engaged, and carry them again once released', async () => {
    const { person, target } = await pair();
    const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
      scope: 'AGENT',
      targetId: target.id,
      reason: 'incident 42',
    });
    let released = false;
    try {
      const refused = await eventually(async () => {
        const answer = await humans.post(person.token, target.id, messageSend('hi'));
        expect(answer.body).toMatchObject({ error: { code: -31005 } });
        return answer;
      });

      expect(refused.body).toMatchObject({
        error: { code: -31005, data: { agpCode: 'kill_switch', killSwitchId: engaged.id } },
      });
      await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
      released = true;
      const after = await eventually(async () => {
        const answer = await humans.post(person.token, target.id, messageSend('back'));
        expect(answer.body).toMatchObject({ result: { status: { state: 'completed' } } });
        return answer;
      });
      expect(answerText(after.body)).toBe('echo: back');
    } finally {
      if (!released) {
        await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
      }
    }
  });

  it('should answer 429 with -31029 once a person goes over the rate limit, counted for the person', async () => {
    const { person, target } = await pair();
    await world.ok('PATCH', '/relay/v1/traffic-settings', { rateLimits: { agentPerMinute: 2 } });
    try {
      const answers = [];
      // Six within at most two minute windows of two each: at least two are over the limit.
      for (let i = 0; i < 6; i += 1) {
        answers.push(await humans.post(person.token, target.id, messageSend(`n ${i}`, i)));
      }

      const limited = answers.filter((a) => a.status === 429);
      expect(limited.length).toBeGreaterThanOrEqual(2);
      expect(limited[0].headers.get('retry-after')).toMatch(/^\d+$/);
      expect(limited[0].body).toMatchObject({
        error: { code: -31029, data: { agpCode: 'rate_limited' } },
      });
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', {
        rateLimits: { agentPerMinute: null },
      });
    }
  });

  it('should refuse a push notification configuration from a person with A2A’s -32003, audited', async () => {
    const { person, target } = await pair();
    const before = agent.requestCount();
    const correlationId = randomUUID();

    const sut = await humans.post(
      person.token,
      target.id,
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tasks/pushNotificationConfig/set',
        params: { taskId: 't-1', pushNotificationConfig: { url: 'https://example.com/hook' } },
      },
      { 'x-correlation-id': correlationId },
    );

    expect(sut.body).toMatchObject({ id: 9, error: { code: -32003 } });
    expect(agent.requestCount()).toBe(before);
    const trace = await world.trace(correlationId, 1);
    expect(trace[0]).toMatchObject({
      action: 'BLOCK',
      actor: expect.objectContaining({ type: 'USER', id: person.id }),
    });
  });
});
