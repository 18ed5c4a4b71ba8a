import { randomUUID } from 'node:crypto';

import { A2aTestAgent, eventually, startA2aTestAgent } from '@agp/testing';
import { Webhook } from 'standardwebhooks';

import { A2aWorld } from './a2a/a2a-world';
import { BOT_TOKEN, SIGNING_SECRET, ChannelWorld } from './channels/channel-world';
import { SlackStandIn, slackMessageEvent } from './channels/slack-stand-in';
import { WebhookStandIn } from './channels/webhook-stand-in';
import { HumanWorld, answerText, messageSend } from './human/human-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld } from './mcp/mcp-world';

const TENANT_TEXT = 'Heads up: you are chatting with an AI assistant.';
const AI_DISCLOSURE_HEADER = /^mode=ai-originated, date=@\d{10}$/;

/** Refuses an agent's answer to a person that neither carries nor follows a disclosure (T73). */
const DISCLOSURE_REQUIRED_POLICY = `package disclosure.required

import rego.v1

decision := {"action": "BLOCK", "reasons": ["the person was never told they talk to an AI"]} if {
	input.direction == "RESPONSE"
	not input.disclosure.madeBefore
	not input.disclosure.willBeMade
}
`;

/** Holds an agent's answer that names a payment, for a reviewer (D34). */
const ANSWER_HOLD_POLICY = `package disclosure.hold

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["payments need a reviewer"]} if {
	input.direction == "RESPONSE"
	contains(input.message.text, "payout")
}
`;

/**
 * Issue 34 § 2 (D45, D57): the first (or every) agent message to a person carries a disclosure in
 * its channel's own form, and agent content carries a machine-readable marking; each disclosure
 * made is one AI_DISCLOSURE, each marked delivery one SYNTHETIC_CONTENT_MARKING. Behind the
 * gateway, as in production.
 */
describe('AI disclosure and synthetic-content marking', () => {
  let platform: McpPlatform;
  let agent: A2aTestAgent;
  let slack: SlackStandIn;
  let receiver: WebhookStandIn;
  let world: McpWorld;
  let channels: ChannelWorld;
  let humans: HumanWorld;

  beforeAll(async () => {
    platform = await startMcpPlatform('services');
    agent = await startA2aTestAgent({ legacyCompat: true });
    slack = await SlackStandIn.start(BOT_TOKEN);
    receiver = await WebhookStandIn.start();
    world = await McpWorld.create(platform);
    channels = new ChannelWorld(world, new A2aWorld(world), agent.cardUrl, slack.apiBaseUrl);
    humans = new HumanWorld(world);
    // Before any traffic of the tenant, so no replica holds its settings from before.
    await world.ok('PATCH', '/relay/v1/traffic-settings', {
      aiDisclosure: 'FIRST_MESSAGE',
      aiDisclosureText: TENANT_TEXT,
      contentMarking: 'ON',
      // A held answer comes back at once as held; the person's resend delivers it (D34).
      hitlWaitSeconds: 1,
    });
  });

  afterAll(async () => {
    await receiver?.close();
    await slack?.close();
    await agent?.close();
    await platform?.close();
  });

  /** The disclosure and marking events of one correlation id, once its answer was marked. */
  async function recorded(correlationId: string, markings = 1) {
    const trace = await world.trace(
      correlationId,
      (items) =>
        items.filter((e) => e.eventType === 'SYNTHETIC_CONTENT_MARKING').length >= markings,
    );
    return {
      disclosures: trace.filter((e) => e.eventType === 'AI_DISCLOSURE'),
      markings: trace.filter((e) => e.eventType === 'SYNTHETIC_CONTENT_MARKING'),
    };
  }

  it('should keep the settings and refuse values outside D57’s, on the tenant and on a channel', async () => {
    const settings = await world.ok<Json>('GET', '/relay/v1/traffic-settings');
    const badTenant = await world.api<Json>('PATCH', '/relay/v1/traffic-settings', {
      aiDisclosure: 'SOMETIMES',
      contentMarking: true,
    });
    const badChannel = await world.api<Json>('POST', '/relay/v1/channels', {
      name: `web-${randomUUID().slice(0, 8)}`,
      kind: 'WEB',
      config: { allowedOrigins: [], aiDisclosure: 'ALWAYS' },
    });

    expect(settings).toMatchObject({
      aiDisclosure: 'FIRST_MESSAGE',
      aiDisclosureText: TENANT_TEXT,
      contentMarking: 'ON',
    });
    expect(badTenant.status).toBe(400);
    expect(JSON.stringify(badTenant.body.errors)).toContain('aiDisclosure');
    expect(JSON.stringify(badTenant.body.errors)).toContain('contentMarking');
    expect(badChannel.status).toBe(400);
    expect(JSON.stringify(badChannel.body.errors)).toContain('config.aiDisclosure');
  });

  it('should open the first Slack reply of a thread with the disclosure and mark every reply in Slack’s message metadata', async () => {
    const { channel: created, agentId } = await channels.channel('SLACK', {
      signingSecret: SIGNING_SECRET,
      botToken: BOT_TOKEN,
      apiBaseUrl: slack.apiBaseUrl,
    });
    const id = String(created.id);
    const thread = `1765360000.${String(Date.now()).slice(-6)}`;
    const send = async (text: string, ts: string) => {
      const correlationId = randomUUID();
      await channels.postSlack(id, slackMessageEvent(`Ev${randomUUID()}`, text, ts), {
        correlationId,
      });
      const post = await eventually(() => {
        const found = slack.postsMentioning(text);
        expect(found).toHaveLength(1);
        return found[0];
      });
      return { post, correlationId };
    };

    const first = await send(`first-${randomUUID()}`, thread);
    const second = await send(`second-${randomUUID()}`, thread);
    const otherThread = await send(`other-${randomUUID()}`, `${thread}1`);

    expect(first.post.text).toMatch(new RegExp(`^${TENANT_TEXT}\\n\\necho: first-`));
    expect(second.post.text).toMatch(/^echo: second-/);
    expect(otherThread.post.text.startsWith(`${TENANT_TEXT}\n\necho: other-`)).toBe(true);
    for (const { post } of [first, second, otherThread]) {
      expect(post.metadata).toMatchObject({
        event_type: 'agp_synthetic_content',
        event_payload: {
          ai_generated: true,
          mode: 'ai-originated',
          agent_id: agentId,
          digital_source_type:
            'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
        },
      });
    }
    const counts = await Promise.all(
      [first, second, otherThread].map(async ({ correlationId }) => {
        const { disclosures, markings } = await recorded(correlationId);
        return [disclosures.length, markings.length];
      }),
    );
    expect(counts).toEqual([
      [1, 1],
      [0, 1],
      [1, 1],
    ]);
    const { disclosures } = await recorded(first.correlationId);
    expect(disclosures[0]).toMatchObject({
      protocol: 'CHANNEL',
      source: expect.objectContaining({ type: 'AGENT', id: agentId }),
      sink: expect.objectContaining({ type: 'CHANNEL', id }),
      details: expect.objectContaining({ form: 'SLACK', text: TENANT_TEXT }),
    });
  });

  it('should disclose on every webhook reply when the channel overrides the tenant, in signed payload fields', async () => {
    const override = 'This answer was written by an AI agent.';
    const { channel: created, agentId } = await channels.channel('WEBHOOK', {
      url: receiver.url,
      aiDisclosure: 'EVERY_MESSAGE',
      aiDisclosureText: override,
    });
    const id = String(created.id);
    receiver.secret = String((created.config as Json).signingSecret);
    const signer = new Webhook(receiver.secret);
    const send = async (text: string) => {
      const correlationId = randomUUID();
      const body = JSON.stringify({ text, threadId: 'ticket-7' });
      const messageId = `msg_${randomUUID()}`;
      const accepted = await fetch(channels.eventsUrl(id), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': signer.sign(messageId, new Date(), body),
          'x-correlation-id': correlationId,
        },
        body,
      });
      expect(accepted.status).toBe(202);
      const reply = await eventually(() => {
        const found = receiver.verified.find((p) => String(p.text).includes(text));
        expect(found).toBeDefined();
        return found!;
      });
      return { reply, correlationId };
    };

    const first = await send(`hook-one-${randomUUID()}`);
    const second = await send(`hook-two-${randomUUID()}`);
    const readBack = await world.ok<Json>('GET', `/relay/v1/channels/${id}`);

    for (const { reply } of [first, second]) {
      expect(reply.aiDisclosure).toEqual({ text: override });
      expect(reply.syntheticContent).toMatchObject({
        aiGenerated: true,
        mode: 'ai-originated',
        generator: { type: 'AGENT', id: agentId },
      });
      expect(String(reply.text)).toMatch(/^echo: hook-/);
    }
    expect(receiver.refused).toEqual([]);
    expect(readBack.config).toMatchObject({
      aiDisclosure: 'EVERY_MESSAGE',
      aiDisclosureText: override,
    });
    for (const { correlationId } of [first, second]) {
      const { disclosures, markings } = await recorded(correlationId);
      expect([disclosures.length, markings.length]).toEqual([1, 1]);
      expect(disclosures[0].details).toMatchObject({ form: 'WEBHOOK', text: override });
    }
  });

  it('should give the web chat’s first reply the disclosure and each marked reply the AI-Disclosure header, and nothing when the channel turns both off', async () => {
    const origin = 'https://shop.example';
    const told = await channels.channel('WEB', { allowedOrigins: [origin] });
    const silent = await channels.channel('WEB', {
      allowedOrigins: [origin],
      aiDisclosure: 'OFF',
      contentMarking: 'OFF',
    });
    const chat = async (channel: Json, text: string) => {
      const id = String(channel.id);
      const key = String((channel.config as Json).channelKey);
      const correlationId = randomUUID();
      const accepted = await fetch(channels.eventsUrl(id), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin,
          'x-agp-channel-key': key,
          'x-correlation-id': correlationId,
        },
        body: JSON.stringify({ text, sessionId: 'visitor-9' }),
      });
      const { eventId } = (await accepted.json()) as { eventId: string };
      return eventually(async () => {
        const response = await fetch(`${channels.eventsUrl(id)}/${eventId}`, {
          headers: { origin, 'x-agp-channel-key': key },
        });
        const body = (await response.json()) as Json;
        expect(body.status).toBe('ANSWERED');
        return { headers: response.headers, reply: body.reply as Json, correlationId };
      });
    };

    const first = await chat(told.channel, `web-one-${randomUUID()}`);
    const second = await chat(told.channel, `web-two-${randomUUID()}`);
    const off = await chat(silent.channel, `web-off-${randomUUID()}`);

    expect(first.reply).toMatchObject({ disclosure: TENANT_TEXT, marking: { aiGenerated: true } });
    expect(second.reply.disclosure).toBeUndefined();
    expect(second.reply.marking).toMatchObject({ generator: { id: told.agentId } });
    for (const { headers } of [first, second]) {
      expect(headers.get('ai-disclosure')).toMatch(AI_DISCLOSURE_HEADER);
      expect(headers.get('access-control-expose-headers')).toBe('AI-Disclosure');
    }
    expect(off.reply).toEqual({ text: expect.stringMatching(/^echo: web-off-/) });
    expect(off.headers.get('ai-disclosure')).toBeNull();
    expect((await recorded(first.correlationId)).disclosures).toHaveLength(1);
    expect((await recorded(second.correlationId)).disclosures).toHaveLength(0);
    const offTrace = await world.trace(
      off.correlationId,
      (items) => items.filter((e) => e.eventType === 'COMMUNICATION_AUDIT').length >= 2,
    );
    expect(
      offTrace.filter((e) =>
        ['AI_DISCLOSURE', 'SYNTHETIC_CONTENT_MARKING'].includes(String(e.eventType)),
      ),
    ).toEqual([]);
  });

  it('should let a policy require the disclosure: an answer to a person never told is blocked', async () => {
    const origin = 'https://shop.example';
    const told = await channels.channel(
      'WEB',
      { allowedOrigins: [origin] },
      DISCLOSURE_REQUIRED_POLICY,
    );
    const untold = await channels.channel(
      'WEB',
      { allowedOrigins: [origin], aiDisclosure: 'OFF' },
      DISCLOSURE_REQUIRED_POLICY,
    );
    const chat = async (channel: Json) => {
      const id = String(channel.id);
      const key = String((channel.config as Json).channelKey);
      const headers = { origin, 'x-agp-channel-key': key };
      const accepted = await fetch(channels.eventsUrl(id), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ text: `policy-${randomUUID()}` }),
      });
      const { eventId } = (await accepted.json()) as { eventId: string };
      return eventually(async () => {
        const body = (await (
          await fetch(`${channels.eventsUrl(id)}/${eventId}`, { headers })
        ).json()) as Json;
        expect(['ANSWERED', 'REFUSED']).toContain(body.status);
        return body;
      });
    };

    const delivered = await chat(told.channel);
    const blocked = await chat(untold.channel);

    expect(delivered).toMatchObject({ status: 'ANSWERED', reply: { disclosure: TENANT_TEXT } });
    expect(blocked).toMatchObject({
      status: 'REFUSED',
      reply: { isNotice: true, agpCode: 'blocked_by_policy' },
    });
  });

  it('should carry the disclosure and marking in the A2A answer’s metadata on the people path, the disclosure once per context', async () => {
    const target = await world.agent();
    await world.ok('PATCH', `/relay/v1/agents/${target.id}`, { agentCardUrl: agent.cardUrl });
    const person = await humans.person();
    await humans.subscribe(person.id, target.id);
    const marker = randomUUID();
    const firstCorrelation = randomUUID();
    const secondCorrelation = randomUUID();

    const first = await humans.post(person.token, target.id, messageSend(`hi ${marker}`), {
      'x-correlation-id': firstCorrelation,
    });
    const contextId = String((first.body.result as Json).contextId);
    const next = messageSend(`again ${marker}`, 2);
    ((next.params as Json).message as Json).contextId = contextId;
    const second = await humans.post(person.token, target.id, next, {
      'x-correlation-id': secondCorrelation,
    });

    expect(first.status).toBe(200);
    expect(answerText(first.body)).toBe(`echo: hi ${marker}`);
    expect((first.body.result as Json).metadata).toMatchObject({
      agp: {
        aiDisclosure: { text: TENANT_TEXT },
        syntheticContent: { aiGenerated: true, generator: { type: 'AGENT', id: target.id } },
      },
    });
    expect(first.headers.get('ai-disclosure')).toMatch(AI_DISCLOSURE_HEADER);
    const secondAgp = ((second.body.result as Json).metadata as Json).agp as Json;
    expect(secondAgp.aiDisclosure).toBeUndefined();
    expect(secondAgp.syntheticContent).toMatchObject({ mode: 'ai-originated' });
    const firstRecords = await recorded(firstCorrelation);
    const secondRecords = await recorded(secondCorrelation);
    expect([firstRecords.disclosures.length, firstRecords.markings.length]).toEqual([1, 1]);
    expect([secondRecords.disclosures.length, secondRecords.markings.length]).toEqual([0, 1]);
    expect(firstRecords.disclosures[0]).toMatchObject({
      protocol: 'JSONRPC',
      sink: expect.objectContaining({ type: 'USER', id: person.id }),
      details: expect.objectContaining({ form: 'A2A', method: 'message/send' }),
    });
  });

  it('should disclose once at the start of a person’s stream and mark each event, the stream recorded as one delivery', async () => {
    const target = await world.agent();
    await world.ok('PATCH', `/relay/v1/agents/${target.id}`, { agentCardUrl: agent.cardUrl });
    const person = await humans.person();
    await humans.subscribe(person.id, target.id);
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
    const agpOf = (event: Json) => ((event.result as Json).metadata as Json).agp as Json;

    expect(response.headers.get('ai-disclosure')).toMatch(AI_DISCLOSURE_HEADER);
    expect(events.length).toBeGreaterThan(1);
    expect(JSON.stringify(events)).toContain(`echo: stream ${marker}`);
    expect(agpOf(events[0]).aiDisclosure).toEqual({ text: TENANT_TEXT });
    for (const event of events) {
      expect(agpOf(event).syntheticContent).toMatchObject({ generator: { id: target.id } });
    }
    expect(events.slice(1).filter((event) => agpOf(event).aiDisclosure)).toEqual([]);
    const { disclosures, markings } = await recorded(correlationId);
    expect([disclosures.length, markings.length]).toEqual([1, 1]);
  });

  it('should disclose and mark a held answer when the person’s resend releases it', async () => {
    const target = await world.agent();
    await world.ok('PATCH', `/relay/v1/agents/${target.id}`, { agentCardUrl: agent.cardUrl });
    await world.bindToAgent(target.id, ANSWER_HOLD_POLICY);
    const person = await humans.person();
    await humans.subscribe(person.id, target.id);
    const marker = randomUUID();
    const body = messageSend(`payout ${marker}`, 1, marker);
    const correlationId = randomUUID();

    const held = await humans.post(person.token, target.id, body);
    const hitlRequestId = String(((held.body.error as Json).data as Json).hitlRequestId);
    await world.ok('POST', `/relay/v1/hitl-requests/${hitlRequestId}/approve`, {}, 200);
    const released = await humans.post(
      person.token,
      target.id,
      { ...body, id: 2 },
      { 'x-agp-hitl-request-id': hitlRequestId, 'x-correlation-id': correlationId },
    );

    expect(held.body).toMatchObject({ error: { data: { agpCode: 'review_pending' } } });
    expect(held.body.error).not.toHaveProperty('data.aiDisclosure');
    expect(answerText(released.body)).toBe(`echo: payout ${marker}`);
    expect((released.body.result as Json).metadata).toMatchObject({
      agp: { aiDisclosure: { text: TENANT_TEXT }, syntheticContent: { aiGenerated: true } },
    });
    expect(released.headers.get('ai-disclosure')).toMatch(AI_DISCLOSURE_HEADER);
    const { disclosures, markings } = await recorded(correlationId);
    expect([disclosures.length, markings.length]).toEqual([1, 1]);
  });
});
