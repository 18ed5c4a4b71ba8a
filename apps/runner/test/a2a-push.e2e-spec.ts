import { randomUUID } from 'node:crypto';

import { TaskState } from '@a2a-js/sdk';
import { Client } from '@a2a-js/sdk/client';
import { VerifiedPush, verifyPush } from '@agp/agent-sdk';
import { Client as PgClient } from 'pg';

import {
  A2A_TEST_SECRET,
  A2A_TEST_SSN,
  A2aTestAgent,
  ReceivedWebhook,
  WebhookReceiver,
  eventually,
  matchingSignatures,
  startA2aTestAgent,
} from '@agp/testing';

import { A2aWorld, a2aRefusalOf, userMessage } from './a2a/a2a-world';
import { MCP_BASE_URL, McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { BLOCK_POLICY, MASK_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

/** Holds the target's pushes whose text is an echo (D34). */
const HOLD_PUSH_POLICY = `package a2a.holdpush

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["pushes need a reviewer"]} if {
	input.method == "tasks/pushNotification"
	contains(input.message.text, "echo:")
}
`;

function stateOf(push: ReceivedWebhook): string | undefined {
  const body = push.body as unknown as Json;
  const status = ((body.task ?? body.statusUpdate) as Json | undefined)?.status as Json | undefined;
  return status?.state as string | undefined;
}

/** The task state a verified 1.0 push reports, as the A2A SDK types it. */
function verifiedState(push: VerifiedPush): TaskState | undefined {
  if (push.protocol !== '1.0') {
    return undefined;
  }
  const payload = push.event.payload;
  return payload?.$case === 'task' || payload?.$case === 'statusUpdate'
    ? payload.value.status?.state
    : undefined;
}

/**
 * Issue 30 § 4 "Must show": the push flow end to end. An agent built on the official A2A SDK's
 * server classes with push notifications on is called through the relay by the SDK's client; the
 * caller's push configuration is kept by the relay, the agent is given the relay's callback, and
 * every push it sends comes back through the relay judged and audited as a hop (server → agent),
 * then reaches the caller's URL signed as D19 signs webhooks (traffic.md T40–T44).
 */
describe.each<PlatformMode>(['services', 'embedded'])(
  'A2A pushes through the relay (%s)',
  (mode) => {
    let platform: McpPlatform;
    let agent: A2aTestAgent;
    let legacyAgent: A2aTestAgent;
    let world: McpWorld;
    let a2a: A2aWorld;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      // The SDK's sender logs every push it sends, and every one refused (a blocked push: 403).
      jest.spyOn(console, 'info').mockImplementation(() => undefined);
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
      platform = await startMcpPlatform(mode);
      agent = await startA2aTestAgent({
        pushNotifications: { reach: (url) => url.replace(MCP_BASE_URL, platform.baseUrl) },
      });
      world = await McpWorld.create(platform);
      a2a = new A2aWorld(world);
      receiver = await WebhookReceiver.start();
      legacyAgent = await startA2aTestAgent({
        pushNotifications: { reach: (url) => url.replace(MCP_BASE_URL, platform.baseUrl) },
        legacyCompat: true,
      });
    });

    afterAll(async () => {
      await receiver?.close();
      await agent?.close();
      await legacyAgent?.close();
      await platform?.close();
      // A request still in flight when the platform closes is dropped after F40's grace (10 s):
      // before that bound, one accepted while the embedded platform was closing held it 73 s.
    }, 60_000);

    /** A caller with a webhook (its signing secret, D19), subscribed to a fresh target. */
    async function pair(
      policy?: string,
      cardUrl = agent.cardUrl,
    ): Promise<{ caller: TestAgent; target: TestAgent; secret: string; sut: Client }> {
      const target = await a2a.target(cardUrl);
      const caller = await world.agent();
      const hook = await world.ok<{ webhookSecret: string }>(
        'PATCH',
        `/relay/v1/agents/${caller.id}`,
        { webhookUrl: receiver.url(`hooks-${caller.id}`) },
      );
      await a2a.subscribe(caller.id, target.id);
      if (policy) {
        await world.bindToAgent(caller.id, policy);
      }
      return {
        caller,
        target,
        secret: hook.webhookSecret,
        sut: await a2a.client(caller, target.id),
      };
    }

    /** The relay's own record of the caller's configurations of a task (T40), as stored. */
    async function storedConfigs(taskId: string): Promise<Json[]> {
      const sql = new PgClient({ connectionString: platform.databaseUrl });
      await sql.connect();
      try {
        const rows = await sql.query<Json>(
          'SELECT config_id, url, credentials_ciphertext, task_ended_at FROM relay.a2a_push_configs WHERE task_id = $1 ORDER BY created_at',
          [taskId],
        );
        return rows.rows;
      } finally {
        await sql.end();
      }
    }

    /** A message that keeps its task working until the agent is released, with pushes to `url`. */
    function withPushes(text: string, url: string, token: string) {
      const request = userMessage(text);
      request.configuration = {
        acceptedOutputModes: [],
        returnImmediately: true,
        taskPushNotificationConfig: {
          tenant: '',
          id: '',
          taskId: '',
          url,
          token,
          authentication: undefined,
        },
      };
      return request;
    }

    it('should deliver every push to the caller signed and judged, with a masked field masked, and answer the caller its own configuration', async () => {
      const { caller, target, secret, sut } = await pair(MASK_POLICY);
      const name = `push-${randomUUID()}`;
      const started = (await sut.sendMessage(
        withPushes(`wait customer ${name}`, receiver.url(name), 'caller-own-token'),
      )) as { id: string; status?: { state: TaskState } };
      const listed = await sut.listTaskPushNotificationConfig({
        tenant: '',
        taskId: started.id,
        pageSize: 0,
        pageToken: '',
      });

      agent.release();
      // Three pushes (the task, its artifact, its completion), in no promised order (W8).
      const pushes = await eventually(() => {
        const got = receiver.of(name);
        expect(got.length).toBe(3);
        return got;
      });

      // As the caller reads them: the agent library checks D19's signature and types the push.
      const verified = pushes.map((push) =>
        verifyPush({ secret, headers: push.headers, rawBody: push.raw }),
      );
      expect(verified.map((push) => push.protocol)).toEqual(['1.0', '1.0', '1.0']);
      expect(verified.map((push) => push.taskId)).toEqual([started.id, started.id, started.id]);
      expect(verified.map(verifiedState)).toContain(TaskState.TASK_STATE_COMPLETED);
      expect(new Set(verified.map((push) => push.deliveryId)).size).toBe(3);
      expect(pushes.map(stateOf)).toContain('TASK_STATE_COMPLETED');
      expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      // T42: the caller is answered its own URL and token, never the relay's callback.
      expect(listed.configs).toEqual([
        expect.objectContaining({ url: receiver.url(name), token: 'caller-own-token' }),
      ]);
      for (const push of pushes) {
        expect(matchingSignatures(push, secret)).toEqual([0]);
        expect(push.headers['x-svc-event-type']).toBe('A2A_PUSH_NOTIFICATION');
        expect(push.headers['x-a2a-notification-token']).toBe('caller-own-token');
        expect(push.headers['content-type']).toBe('application/a2a+json');
      }
      const all = pushes.map((p) => p.raw.toString('utf8')).join('\n');
      expect(all).toContain('Ada Example, SSN [MASKED:SSN]');
      expect(all).not.toContain(A2A_TEST_SSN);
      const correlationId = String(pushes[0].headers['x-correlation-id']);
      const trace = await world.trace(correlationId, (items) =>
        items.some((e) => e.eventType === 'COMMUNICATION_AUDIT'),
      );
      expect(trace.find((e) => e.eventType === 'COMMUNICATION_AUDIT')).toMatchObject({
        protocol: 'JSONRPC',
        source: expect.objectContaining({ id: target.id }),
        sink: expect.objectContaining({ id: caller.id }),
        details: expect.objectContaining({
          a2a: true,
          direction: 'RESPONSE',
          method: 'tasks/pushNotification',
        }),
      });
      // A delivery is marked DELIVERED once the receiver's answer is back, after it saw the push.
      await eventually(async () => {
        const deliveries = await world.ok<{ items: Json[] }>(
          'GET',
          `/relay/v1/agents/${caller.id}/webhook-deliveries?eventType=A2A_PUSH_NOTIFICATION`,
        );
        expect(deliveries.items.map((d) => d.status)).toEqual(pushes.map(() => 'DELIVERED'));
      });
    });

    it('should never deliver a push a policy blocks, and audit it as BLOCK', async () => {
      const { caller, target, sut } = await pair(BLOCK_POLICY);
      const name = `push-${randomUUID()}`;
      await sut.sendMessage(withPushes(`wait secret ${name}`, receiver.url(name), 'tok'));

      agent.release();
      // The task and its completion; the artifact, which carries the key, is blocked.
      const pushes = await eventually(() => {
        const got = receiver.of(name);
        expect(got.map(stateOf).sort()).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_WORKING']);
        return got;
      });

      expect(pushes.map((p) => p.raw.toString('utf8')).join('\n')).not.toContain(A2A_TEST_SECRET);
      expect(pushes.some((p) => 'artifactUpdate' in (p.body as unknown as Json))).toBe(false);
      const blocked = await eventually(async () => {
        const page = await world.ok<{ items: Json[] }>(
          'GET',
          `/audit/v1/events?sourceId=${target.id}&sinkId=${caller.id}`,
        );
        const found = page.items.find(
          (e) => e.action === 'BLOCK' && (e.details as Json).method === 'tasks/pushNotification',
        );
        expect(found).toBeDefined();
        return found!;
      });
      expect(blocked.decision).toMatchObject({ reasons: ['AWS access key in message'] });
    });

    it('should refuse a metadata or link-local callback URL with a clear error before the agent hears of it', async () => {
      const { sut } = await pair();
      const before = agent.requestCount();
      const config = (url: string) => ({
        tenant: '',
        id: '',
        taskId: 'task-1',
        url,
        token: '',
        authentication: undefined,
      });

      const metadata = await a2aRefusalOf(
        sut.createTaskPushNotificationConfig(config('http://169.254.169.254/latest/meta-data/')),
      );
      const linkLocal = await a2aRefusalOf(
        sut.createTaskPushNotificationConfig(config('http://169.254.10.20/hook')),
      );
      const inMessage = await a2aRefusalOf(
        sut.sendMessage(withPushes('hello', 'http://[fe80::1]/hook', 'x')),
      );

      expect(metadata).toMatchObject({
        code: -32602,
        message: expect.stringContaining('169.254.169.254 is a cloud metadata address'),
        data: { agpCode: 'push_config_refused', decisionId: expect.any(String) },
      });
      expect(linkLocal.message).toContain('link-local');
      expect(inMessage.message).toContain('push notification URL refused');
      expect(agent.requestCount()).toBe(before);
    });

    it('should refuse the issue reproduction, a 0.3 set naming the metadata address, without forwarding it', async () => {
      const { caller, target } = await pair();
      const before = agent.requestCount();
      const correlationId = randomUUID();

      const sut = await a2a.post(
        caller,
        target.id,
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'tasks/pushNotificationConfig/set',
          params: {
            taskId: 'task-1',
            pushNotificationConfig: { url: 'http://169.254.169.254/latest/meta-data/' },
          },
        },
        { 'a2a-version': '0.3', 'x-correlation-id': correlationId },
      );

      expect(sut.status).toBe(200);
      expect(sut.body).toMatchObject({
        id: 9,
        error: { code: -32602, message: expect.stringContaining('cloud metadata address') },
      });
      expect(agent.requestCount()).toBe(before);
      const trace = await world.trace(correlationId, 1);
      expect(trace[0]).toMatchObject({
        action: 'BLOCK',
        details: expect.objectContaining({ method: 'tasks/pushNotificationConfig/set' }),
      });
    });

    it('should refuse pushes to a caller without a webhook, saying how to get one', async () => {
      const target = await a2a.target(agent.cardUrl);
      const caller = await world.agent();
      await a2a.subscribe(caller.id, target.id);
      const sut = await a2a.client(caller, target.id);

      const refusal = await a2aRefusalOf(
        sut.sendMessage(withPushes('hello', receiver.url('nowhere'), 'x')),
      );

      expect(refusal).toMatchObject({
        code: -32602,
        message: expect.stringContaining('set its webhookUrl'),
      });
    });

    it('should refuse every push while a kill switch on the target is engaged', async () => {
      const { caller, target, sut } = await pair();
      const name = `push-${randomUUID()}`;
      const started = (await sut.sendMessage(
        withPushes(`wait ${name}`, receiver.url(name), 'tok'),
      )) as { id: string };
      await eventually(() =>
        expect(receiver.of(name).map(stateOf)).toEqual(['TASK_STATE_WORKING']),
      );
      const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
        scope: 'AGENT',
        targetId: target.id,
        reason: 'incident 43',
      });
      try {
        // Engaged on every replica once a call of the caller's is refused (D35).
        await eventually(() =>
          a2aRefusalOf(sut.getTask({ tenant: '', id: started.id, historyLength: undefined })),
        );
        agent.release();

        const refused = await eventually(async () => {
          const page = await world.ok<{ items: Json[] }>(
            'GET',
            `/audit/v1/events?sourceId=${target.id}&sinkId=${caller.id}`,
          );
          const found = page.items.filter(
            (e) => e.action === 'BLOCK' && (e.details as Json).method === 'tasks/pushNotification',
          );
          expect(found.length).toBeGreaterThanOrEqual(2);
          return found;
        });

        expect(JSON.stringify(refused[0])).toContain('incident 43');
        // Only the push sent before the switch (the task starting) arrived.
        expect(receiver.of(name).map(stateOf)).toEqual(['TASK_STATE_WORKING']);
      } finally {
        await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
      }
    });

    /**
     * A push held for a person (HOLD_PUSH_POLICY: the artifact, which echoes). `pastTheWait`: the
     * target's POST has stopped waiting (hitlWaitSeconds 1, set by the test), seen by the task's
     * completion arriving after it.
     */
    async function heldPush(pastTheWait: boolean): Promise<{
      caller: TestAgent;
      secret: string;
      name: string;
      hold: Json;
    }> {
      const { caller, secret, sut } = await pair(HOLD_PUSH_POLICY);
      const name = `push-${randomUUID()}`;
      await sut.sendMessage(withPushes(`wait ${name}`, receiver.url(name), 'tok'));
      await eventually(() =>
        expect(receiver.of(name).map(stateOf)).toEqual(['TASK_STATE_WORKING']),
      );
      agent.release();
      const hold = await eventually(async () => {
        const page = await world.ok<{ items: Json[] }>(
          'GET',
          `/relay/v1/hitl-requests?agentId=${caller.id}&status=PENDING`,
        );
        expect(page.items).toHaveLength(1);
        return page.items[0];
      });
      if (pastTheWait) {
        await eventually(() =>
          expect(receiver.of(name).map(stateOf).sort()).toEqual([
            'TASK_STATE_COMPLETED',
            'TASK_STATE_WORKING',
          ]),
        );
      }
      return { caller, secret, name, hold };
    }

    function artifactsOf(name: string): ReturnType<WebhookReceiver['of']> {
      return receiver.of(name).filter((p) => 'artifactUpdate' in (p.body as unknown as Json));
    }

    it('should hold a push for a person and not deliver it while the hold is pending', async () => {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
      try {
        const { name, hold } = await heldPush(true);

        expect(hold).toMatchObject({ method: 'tasks/pushNotification', direction: 'RESPONSE' });
        expect(artifactsOf(name)).toHaveLength(0);
      } finally {
        await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 30 });
      }
    });

    it('should deliver a held push once when a person approves it after its target stopped waiting, on any replica', async () => {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
      let replica: string | undefined;
      try {
        const { caller, secret, name, hold } = await heldPush(true);
        expect(artifactsOf(name)).toHaveLength(0);
        // Services: approved on another relay replica than the one that held it (D34).
        replica = platform.startRelayReplica ? await platform.startRelayReplica() : undefined;

        const approved = await world.ok<Json>(
          'POST',
          `${replica ?? ''}/relay/v1/hitl-requests/${String(hold.id)}/approve`,
          { note: 'fine' },
          200,
        );
        const [delivered] = await eventually(() => {
          const got = artifactsOf(name);
          expect(got).toHaveLength(1);
          return got;
        });
        // Once: a second approval is refused and nothing else arrives.
        const again = await world.api(
          'POST',
          `/relay/v1/hitl-requests/${String(hold.id)}/approve`,
          {},
        );
        await new Promise((resolve) => setTimeout(resolve, 1500));

        expect(approved).toMatchObject({ status: 'RELEASED', releasedAt: expect.any(String) });
        expect(again.status).toBe(409);
        expect(artifactsOf(name)).toHaveLength(1);
        const verified = verifyPush({ secret, headers: delivered.headers, rawBody: delivered.raw });
        expect(verified.protocol === '1.0' && verified.event.payload?.$case).toBe('artifactUpdate');
        expect(delivered.headers['x-a2a-notification-token']).toBe('tok');
        const trace = await world.trace(String(hold.correlationId), (items) =>
          items.some((e) => e.eventType === 'HITL_RELEASED'),
        );
        expect(trace.find((e) => e.eventType === 'HITL_RELEASED')).toMatchObject({
          details: expect.objectContaining({ via: 'APPROVAL', deliveryId: verified.deliveryId }),
        });
        const deliveries = await world.ok<{ items: Json[] }>(
          'GET',
          `/relay/v1/agents/${caller.id}/webhook-deliveries?eventType=A2A_PUSH_NOTIFICATION`,
        );
        expect(deliveries.items.map((d) => d.id)).toContain(verified.deliveryId);
      } finally {
        if (replica) {
          await platform.stopRelayReplica!(replica);
        }
        await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 30 });
      }
    });

    it('should never deliver a held push a person rejects', async () => {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
      try {
        const { name, hold } = await heldPush(true);

        const rejected = await world.ok<Json>(
          'POST',
          `/relay/v1/hitl-requests/${String(hold.id)}/reject`,
          { note: 'no' },
          200,
        );
        const trace = await world.trace(String(hold.correlationId), (items) =>
          items.some((e) => e.eventType === 'HITL_RESOLUTION'),
        );
        await new Promise((resolve) => setTimeout(resolve, 1500));

        expect(rejected).toMatchObject({ status: 'REJECTED' });
        expect(artifactsOf(name)).toHaveLength(0);
        expect(trace.map((e) => e.eventType)).not.toContain('HITL_RELEASED');
      } finally {
        await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 30 });
      }
    });

    it('should deliver a held push approved while its target waits, once, with no release refused', async () => {
      const { name, hold } = await heldPush(false);

      await world.ok('POST', `/relay/v1/hitl-requests/${String(hold.id)}/approve`, {}, 200);
      await eventually(() => expect(artifactsOf(name)).toHaveLength(1));
      await eventually(() => expect(receiver.of(name)).toHaveLength(3));
      await new Promise((resolve) => setTimeout(resolve, 1500));

      expect(artifactsOf(name)).toHaveLength(1);
      const trace = await world.trace(String(hold.correlationId), (items) =>
        items.some((e) => e.eventType === 'HITL_RELEASED'),
      );
      expect(trace.filter((e) => e.eventType === 'HITL_RELEASED')).toHaveLength(1);
      expect(trace.map((e) => e.eventType)).not.toContain('HITL_GUARD');
    });

    it('should govern the protocol 0.3 push flow against the SDK 0.3 server: set and message/send configurations, 0.3 pushes delivered signed and masked', async () => {
      const { caller, target, secret } = await pair(MASK_POLICY, legacyAgent.cardUrl);
      const v03 = { 'a2a-version': '0.3' };
      const name = `legacy-${randomUUID()}`;
      const before = legacyAgent.received.length;

      const sent = await a2a.post(
        caller,
        target.id,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              role: 'user',
              messageId: randomUUID(),
              parts: [{ kind: 'text', text: `wait customer ${name}` }],
            },
            configuration: {
              blocking: false,
              pushNotificationConfig: { url: receiver.url(name), token: 'legacy-token' },
            },
          },
        },
        v03,
      );
      const task = sent.body.result as Json;
      const set = await a2a.post(
        caller,
        target.id,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tasks/pushNotificationConfig/set',
          params: {
            taskId: task.id,
            pushNotificationConfig: {
              id: 'second',
              url: receiver.url(`${name}-2`),
              token: 'second-token',
            },
          },
        },
        v03,
      );
      const refused = await a2a.post(
        caller,
        target.id,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tasks/pushNotificationConfig/set',
          params: {
            taskId: task.id,
            pushNotificationConfig: { url: 'http://169.254.169.254/latest/meta-data/' },
          },
        },
        v03,
      );
      const kept = await storedConfigs(String(task.id));
      legacyAgent.release();
      const pushes = await eventually(() => {
        const got = receiver.of(name);
        expect(got.map((p) => JSON.stringify(p.body))).toEqual(
          expect.arrayContaining([expect.stringContaining('"state":"completed"')]),
        );
        return got;
      });
      const second = await eventually(() => {
        const got = receiver.of(`${name}-2`);
        expect(got.map((p) => JSON.stringify(p.body))).toEqual(
          expect.arrayContaining([expect.stringContaining('"state":"completed"')]),
        );
        return got;
      });
      // T113: the pushes that said "completed" marked their configurations' task as ended.
      const ended = await storedConfigs(String(task.id));

      expect(ended.length).toBeGreaterThan(0);
      expect(ended.every((row) => row.task_ended_at !== null)).toBe(true);
      expect(sent.status).toBe(200);
      expect(task).toMatchObject({ kind: 'task', status: { state: 'working' } });
      // T42: the caller is answered its own configuration in 0.3's shape.
      expect(set.body.result).toMatchObject({
        taskId: task.id,
        pushNotificationConfig: {
          id: 'second',
          url: receiver.url(`${name}-2`),
          token: 'second-token',
        },
      });
      expect(refused.body.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('cloud metadata address'),
      });
      // T40: the relay keeps the caller's URLs; the agent was given the relay's callback.
      expect(kept.map((row) => row.url)).toEqual([receiver.url(name), receiver.url(`${name}-2`)]);
      expect(legacyAgent.received.length).toBe(before + 1);
      for (const push of [...pushes, ...second]) {
        const verified = verifyPush({
          secret,
          headers: push.headers,
          rawBody: push.raw,
        });
        expect(verified).toMatchObject({ protocol: '0.3', taskId: task.id });
        expect(push.headers['content-type']).toBe('application/json');
      }
      expect(pushes.every((p) => p.headers['x-a2a-notification-token'] === 'legacy-token')).toBe(
        true,
      );
      expect(second.every((p) => p.headers['x-a2a-notification-token'] === 'second-token')).toBe(
        true,
      );
      const all = [...pushes, ...second].map((p) => p.raw.toString('utf8')).join('\n');
      expect(all).toContain('Ada Example, SSN [MASKED:SSN]');
      expect(all).not.toContain(A2A_TEST_SSN);
    });

    it('should answer get with the caller own URL and remove the configuration on delete', async () => {
      const { sut } = await pair();
      const started = (await sut.sendMessage(
        withPushes(`wait ${randomUUID()}`, receiver.url('unused'), 'tok'),
      )) as { id: string };
      const set = await sut.createTaskPushNotificationConfig({
        tenant: '',
        id: 'second',
        taskId: started.id,
        url: receiver.url('second'),
        token: 'second-token',
        authentication: undefined,
      });
      const got = await sut.getTaskPushNotificationConfig({
        tenant: '',
        taskId: started.id,
        id: 'second',
      });

      const kept = await storedConfigs(started.id);
      await sut.deleteTaskPushNotificationConfig({ tenant: '', taskId: started.id, id: 'second' });
      const after = await sut.listTaskPushNotificationConfig({
        tenant: '',
        taskId: started.id,
        pageSize: 0,
        pageToken: '',
      });
      const left = await storedConfigs(started.id);
      agent.release();

      // T40: the relay keeps the caller's URL, its token sealed; the agent was given the relay's.
      expect(kept.map((row) => row.url)).toEqual([receiver.url('unused'), receiver.url('second')]);
      expect(JSON.stringify(kept)).not.toContain('second-token');
      expect(left.map((row) => row.config_id)).not.toContain('second');
      expect(set).toMatchObject({
        id: 'second',
        url: receiver.url('second'),
        token: 'second-token',
      });
      expect(got).toMatchObject({ url: receiver.url('second'), token: 'second-token' });
      expect(after.configs.map((c) => c.url)).toEqual([receiver.url('unused')]);
    });

    it('should refuse a push to a callback without its token', async () => {
      const answer = await fetch(`${platform.baseUrl}/relay/a2a-push/${randomUUID()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-a2a-notification-token': 'guess' },
        body: JSON.stringify({ task: { id: 't' } }),
      });

      expect(answer.status).toBe(401);
      // RFC 6750 § 3: a 401 names the scheme it wants, as every other 401 of the platform does.
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });
  },
);
