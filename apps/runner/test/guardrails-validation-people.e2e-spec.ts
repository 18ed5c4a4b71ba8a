import { randomUUID } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { A2aTestAgent, eventually, startA2aTestAgent } from '@agp/testing';

import { A2aWorld } from './a2a/a2a-world';
import { ChannelWorld } from './channels/channel-world';
import { WebhookStandIn } from './channels/webhook-stand-in';
import { HumanWorld, answerText } from './human/human-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld } from './mcp/mcp-world';
import {
  checkedHops,
  decidedHop,
  hopsChecked,
  validatedHops,
  detailsOf,
  invalidBlocks,
  ofType,
  validationOf,
} from './guardrails/validation-trail';

const INVALID_BLOCKS = invalidBlocks('people.checks');

const ORDER_SCHEMA = {
  type: 'object',
  properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
  required: ['sku', 'qty'],
};

/**
 * Issue 36 "each validation on every path", the people and channel paths (GR22, GR37): a person's
 * A2A data parts on `/relay/human/{agentId}` and the data parts of an agent's answer to a channel
 * checked against the schemas the agent's card declares, as `input.validation` and
 * VALIDATION_RESULT, the verdict left to the policy.
 */
describe('validation on the people and channel paths', () => {
  let platform: McpPlatform;
  let agent: A2aTestAgent;
  let receiver: WebhookStandIn;
  let world: McpWorld;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    agent = await startA2aTestAgent({ legacyCompat: true });
    agent.card.capabilities!.extensions = [
      {
        uri: 'urn:agp:a2a:data-schemas:v1',
        description: 'the orders this agent takes and answers',
        required: false,
        params: { request: ORDER_SCHEMA, response: ORDER_SCHEMA },
      },
    ];
    receiver = await WebhookStandIn.start();
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    await receiver?.close();
    await agent?.close();
    await platform?.close();
  });

  describe('/relay/human/{agentId}', () => {
    const send = (text: string, data?: Json): Json => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: randomUUID(),
          role: 'user',
          parts: [{ kind: 'text', text }, ...(data ? [{ kind: 'data', data }] : [])],
        },
      },
    });

    it("should check a person's data parts and the agent's answer against the card's schemas", async () => {
      const humans = new HumanWorld(world);
      const target = await new A2aWorld(world).target(agent.cardUrl);
      await world.bindToAgent(target.id, INVALID_BLOCKS);
      const person = await humans.person();
      await humans.subscribe(person.id, target.id);
      const [refused, answeredBadly, fine] = [randomUUID(), randomUUID(), randomUUID()];
      const post = (correlationId: string, body: Json) =>
        humans.post(person.token, target.id, body, { 'x-correlation-id': correlationId });

      const invalidRequest = await post(refused, send(`order ${refused}`, { sku: 'a-1' }));
      const invalidAnswer = await post(
        answeredBadly,
        send(`order ${answeredBadly} with data {"sku":"a-1"}`),
      );
      const valid = await post(
        fine,
        send(`order ${fine} with data {"sku":"a-1","qty":2}`, { sku: 'a-1', qty: 2 }),
      );

      expect(invalidRequest.body).toMatchObject({
        error: { data: { reasons: ['invalid: A2A_DATA_PART'] } },
      });
      expect(agent.received.some((m) => m.text.includes(refused))).toBe(false);
      expect(agent.received.some((m) => m.text.includes(answeredBadly))).toBe(true);
      expect(invalidAnswer.body).toMatchObject({
        error: { data: { reasons: ['invalid: A2A_DATA_PART'] } },
      });
      expect(answerText(valid.body)).toContain(fine);
      const request = await world.trace(refused, checkedHops(1));
      const [checked] = ofType(request, 'VALIDATION_RESULT');
      expect(decidedHop(request, checked)).toMatchObject({
        action: 'BLOCK',
        source: expect.objectContaining({ type: 'USER', id: person.id }),
      });
      expect(validationOf(checked)).toEqual({
        valid: false,
        results: [
          expect.objectContaining({
            target: 'A2A_DATA_PART',
            path: 'params.message.parts.1.data',
            valid: false,
            errors: [expect.objectContaining({ keyword: 'required' })],
          }),
        ],
      });
      const answer = await world.trace(answeredBadly, checkedHops(1));
      const [answerChecked] = ofType(answer, 'VALIDATION_RESULT');
      expect(decidedHop(answer, answerChecked)).toMatchObject({
        action: 'BLOCK',
        sink: expect.objectContaining({ type: 'USER', id: person.id }),
      });
      expect(validationOf(answerChecked)).toMatchObject({ valid: false });
      // GR31: passing checks ride on the hops' own events.
      const passed = await world.trace(fine, hopsChecked(2));
      expect(ofType(passed, 'VALIDATION_RESULT')).toEqual([]);
      expect(
        validatedHops(passed)
          .map((e) => [detailsOf(e).direction, validationOf(e).valid])
          .sort(),
      ).toEqual([
        ['REQUEST', true],
        ['RESPONSE', true],
      ]);
    });
  });

  describe('/relay/channels/{channelId}/events', () => {
    it("should check the data parts of the agent's answer to a channel, and post a notice when the policy refuses it", async () => {
      const channels = new ChannelWorld(world, new A2aWorld(world), agent.cardUrl, 'unused');
      const { channel } = await channels.channel('WEBHOOK', { url: receiver.url }, INVALID_BLOCKS);
      const id = String(channel.id);
      receiver.secret = String((channel.config as Json).signingSecret);
      const signer = new Webhook(receiver.secret);
      const post = async (correlationId: string, text: string) => {
        const body = JSON.stringify({ text, threadId: `t-${correlationId}` });
        const messageId = `msg_${randomUUID()}`;
        const answer = await fetch(channels.eventsUrl(id), {
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
        expect(answer.status).toBe(202);
      };
      const replyIn = (thread: string) =>
        eventually(() => {
          const found = receiver.verified.find((p) => p.threadId === thread);
          expect(found).toBeDefined();
          return found!;
        });
      const [bad, good] = [randomUUID(), randomUUID()];

      await post(bad, `order ${bad} with data {"sku":"a-1"}`);
      await post(good, `order ${good} with data {"sku":"a-1","qty":2}`);

      const refused = await replyIn(`t-${bad}`);
      const posted = await replyIn(`t-${good}`);
      expect(String(refused.text)).not.toContain(bad);
      expect(String(refused.text)).toMatch(/decision/);
      expect(String(posted.text)).toContain(`echo: order ${good}`);
      const badTrace = await world.trace(bad, checkedHops(1));
      const [checked] = ofType(badTrace, 'VALIDATION_RESULT');
      expect(checked).toMatchObject({ protocol: 'CHANNEL' });
      expect(decidedHop(badTrace, checked)).toMatchObject({
        action: 'BLOCK',
        sink: expect.objectContaining({ type: 'CHANNEL', id }),
      });
      expect(validationOf(checked)).toEqual({
        valid: false,
        results: [
          expect.objectContaining({
            target: 'A2A_DATA_PART',
            path: 'parts.0.data',
            valid: false,
            errors: [expect.objectContaining({ keyword: 'required' })],
          }),
        ],
      });
      const goodTrace = await world.trace(good, hopsChecked(1));
      expect(ofType(goodTrace, 'VALIDATION_RESULT')).toEqual([]);
      expect(validationOf(validatedHops(goodTrace)[0])).toMatchObject({ valid: true });
    });
  });
});
