import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { TestCaller } from './support/relay-test-app';

type Json = Record<string, unknown>;
type Problem = { type: string; detail: string; errors?: Array<{ field: string; message: string }> };

const PATH = '/relay/v1/traffic-settings';
const DEFAULTS = {
  rateLimits: { tenantPerMinute: null, agentPerMinute: null, subscriptionPerMinute: null },
  contentCapture: false,
  hitlWaitSeconds: 30,
  hitlExpirySeconds: 86_400,
  durability: 'BEFORE_FORWARD',
  shadowSampleRate: 1,
  allowedOrigins: null,
  toolDrift: 'HOLD',
  aiDisclosure: 'OFF',
  aiDisclosureText: null,
  contentMarking: 'OFF',
  paymentReviewThreshold: null,
};

/** D34, D36, D40: the tenant's traffic settings, read with TENANT:READ and changed with TENANT:WRITE. */
describe('traffic settings', () => {
  const relay = RelayBed.use('traffic_settings');

  /** A tenant of its own per test, so that no test sees another's settings. */
  const writer = (tenantId = randomUUID()): Promise<TestCaller> =>
    TestCaller.create(relay.issuer, tenantId, ['TENANT:WRITE']);

  const fieldsOf = (problem: Problem): string[] =>
    [...new Set((problem.errors ?? []).map((e) => e.field))].sort();

  function settingsEvents(tenantId: string): Json[] {
    return relay.tap
      .ofType('ADMIN_CHANGE')
      .filter((e) => e.tenantId === tenantId)
      .map((e) => e.data);
  }

  it('should answer the defaults when the tenant has changed nothing', async () => {
    const reader = await TestCaller.create(relay.issuer, randomUUID(), ['TENANT:READ']);

    const read = await reader.call(relay.app, 'GET', PATH);

    expect(read.status).toBe(200);
    expect(read.body).toEqual(DEFAULTS);
  });

  it('should change only the fields given, keep the rest, and record ADMIN_CHANGE with the changed fields before and after', async () => {
    const sut = await writer();

    const first = await sut.call(relay.app, 'PATCH', PATH, {
      rateLimits: { tenantPerMinute: 1_000, agentPerMinute: 100 },
      contentCapture: true,
    });
    const second = await sut.call(relay.app, 'PATCH', PATH, {
      rateLimits: { subscriptionPerMinute: 10, tenantPerMinute: null },
      hitlWaitSeconds: 300,
      hitlExpirySeconds: 60,
    });
    const read = await sut.call(relay.app, 'GET', PATH);

    const expected = {
      rateLimits: { tenantPerMinute: null, agentPerMinute: 100, subscriptionPerMinute: 10 },
      contentCapture: true,
      hitlWaitSeconds: 300,
      hitlExpirySeconds: 60,
      durability: 'BEFORE_FORWARD',
      shadowSampleRate: 1,
      allowedOrigins: null,
      toolDrift: 'HOLD',
      aiDisclosure: 'OFF',
      aiDisclosureText: null,
      contentMarking: 'OFF',
      paymentReviewThreshold: null,
    };
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ...DEFAULTS,
      rateLimits: { tenantPerMinute: 1_000, agentPerMinute: 100, subscriptionPerMinute: null },
      contentCapture: true,
    });
    expect(second.body).toEqual(expected);
    expect(read.body).toEqual(expected);
    const events = await eventually(() => {
      const found = settingsEvents(sut.tenantId);
      expect(found).toHaveLength(2);
      return found;
    });
    expect(events[1]).toEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ id: sut.subject }),
        change: 'UPDATED',
        target: { kind: 'TRAFFIC_SETTINGS', id: sut.tenantId },
        fields: ['rateLimits', 'hitlWaitSeconds', 'hitlExpirySeconds'],
        changes: {
          rateLimits: { before: first.body.rateLimits, after: expected.rateLimits },
          hitlWaitSeconds: { before: first.body.hitlWaitSeconds, after: 300 },
          hitlExpirySeconds: { before: first.body.hitlExpirySeconds, after: 60 },
        },
      }),
    );
  });

  it('should accept the bounds and answer 400 naming each field just outside them', async () => {
    const sut = await writer();

    const edges = await sut.call(relay.app, 'PATCH', PATH, {
      rateLimits: { tenantPerMinute: 1_000_000, agentPerMinute: 1, subscriptionPerMinute: 1 },
      hitlWaitSeconds: 1,
      hitlExpirySeconds: 2_592_000,
    });
    const outside = await sut.call<Problem>(relay.app, 'PATCH', PATH, {
      rateLimits: { tenantPerMinute: 1_000_001, agentPerMinute: 0, subscriptionPerMinute: 1.5 },
      hitlWaitSeconds: 301,
      hitlExpirySeconds: 59,
      contentCapture: 'yes',
      durability: 'SOMETIMES',
    });
    const below = await sut.call<Problem>(relay.app, 'PATCH', PATH, {
      hitlWaitSeconds: 0,
      hitlExpirySeconds: 2_592_001,
      rateLimits: { agentPerMinute: -5 },
    });

    expect(edges.status).toBe(200);
    expect(outside.status).toBe(400);
    expect(fieldsOf(outside.body)).toEqual([
      'contentCapture',
      'durability',
      'hitlExpirySeconds',
      'hitlWaitSeconds',
      'rateLimits.agentPerMinute',
      'rateLimits.subscriptionPerMinute',
      'rateLimits.tenantPerMinute',
    ]);
    expect(fieldsOf(below.body)).toEqual([
      'hitlExpirySeconds',
      'hitlWaitSeconds',
      'rateLimits.agentPerMinute',
    ]);
    expect((await sut.call(relay.app, 'GET', PATH)).body).toEqual(edges.body);
  });

  it('should answer 400 when a field that cannot be cleared is null, or the body is unknown or malformed', async () => {
    const sut = await writer();

    const nulls = await sut.call<Problem>(relay.app, 'PATCH', PATH, {
      contentCapture: null,
      hitlWaitSeconds: null,
      hitlExpirySeconds: null,
      rateLimits: null,
      durability: null,
    });
    const unknown = await sut.call<Problem>(relay.app, 'PATCH', PATH, {
      rateLimits: { perHour: 5 },
      failOpen: true,
    });
    const notObject = await sut.call<Problem>(relay.app, 'PATCH', PATH, { rateLimits: [] });
    const strings = await sut.call<Problem>(relay.app, 'PATCH', PATH, {
      rateLimits: { tenantPerMinute: '10' },
      hitlWaitSeconds: '30',
    });

    expect(nulls.status).toBe(400);
    expect(fieldsOf(nulls.body)).toEqual([
      'contentCapture',
      'durability',
      'hitlExpirySeconds',
      'hitlWaitSeconds',
      'rateLimits',
    ]);
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toEqual(['failOpen', 'rateLimits.perHour']);
    expect(fieldsOf(notObject.body)).toEqual(['rateLimits']);
    expect(fieldsOf(strings.body)).toEqual(['hitlWaitSeconds', 'rateLimits.tenantPerMinute']);
    expect((await sut.call(relay.app, 'GET', PATH)).body).toEqual(DEFAULTS);
  });

  it('should keep the durability a tenant chooses (T52) and record the change', async () => {
    const sut = await writer();

    const overlapped = await sut.call(relay.app, 'PATCH', PATH, { durability: 'BEFORE_ANSWER' });
    const read = await sut.call(relay.app, 'GET', PATH);

    expect(overlapped.status).toBe(200);
    expect(read.body).toEqual({ ...DEFAULTS, durability: 'BEFORE_ANSWER' });
    const events = await eventually(() => {
      const found = settingsEvents(sut.tenantId);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(JSON.stringify(events[0])).toContain('BEFORE_ANSWER');
  });

  it('should record nothing when a PATCH changes nothing', async () => {
    const sut = await writer();
    await sut.call(relay.app, 'PATCH', PATH, { hitlWaitSeconds: 45 });

    const empty = await sut.call(relay.app, 'PATCH', PATH, {});
    const same = await sut.call(relay.app, 'PATCH', PATH, { hitlWaitSeconds: 45 });
    const marker = await sut.call(relay.app, 'PATCH', PATH, { hitlWaitSeconds: 46 });

    expect([empty.status, same.status, marker.status]).toEqual([200, 200, 200]);
    expect(same.body).toEqual({ ...DEFAULTS, hitlWaitSeconds: 45 });
    const events = await eventually(() => {
      const found = settingsEvents(sut.tenantId);
      expect(
        found.some((e) => (e.changes as Record<string, Json>).hitlWaitSeconds?.after === 46),
      ).toBe(true);
      return found;
    });
    expect(events).toHaveLength(2);
  });

  it('should store toolDrift and allowed origins, and clear the origins back to the default with null (D51, T85)', async () => {
    const sut = await writer();

    const set = await sut.call(relay.app, 'PATCH', PATH, {
      toolDrift: 'BLOCK',
      allowedOrigins: ['https://console.acme.example', 'http://localhost:5173'],
    });
    const cleared = await sut.call(relay.app, 'PATCH', PATH, { allowedOrigins: null });

    expect(set.body).toEqual({
      ...DEFAULTS,
      toolDrift: 'BLOCK',
      allowedOrigins: ['https://console.acme.example', 'http://localhost:5173'],
    });
    expect(cleared.body).toEqual({ ...DEFAULTS, toolDrift: 'BLOCK' });
  });

  it('should answer 400 naming each field when toolDrift or an origin is not valid', async () => {
    const sut = await writer();

    const answer = await sut.call(relay.app, 'PATCH', PATH, {
      toolDrift: 'IGNORE',
      allowedOrigins: ['https://ok.example', 'https://bad.example/path'],
    });

    expect(answer.status).toBe(400);
    expect(fieldsOf(answer.body as unknown as Problem)).toEqual(['allowedOrigins', 'toolDrift']);
  });

  it('should keep every field when administrators change different fields at once', async () => {
    const sut = await writer();

    const answers = await Promise.all([
      sut.call(relay.app, 'PATCH', PATH, { rateLimits: { tenantPerMinute: 500 } }),
      sut.call(relay.app, 'PATCH', PATH, { rateLimits: { agentPerMinute: 50 } }),
      sut.call(relay.app, 'PATCH', PATH, { contentCapture: true }),
      sut.call(relay.app, 'PATCH', PATH, { hitlWaitSeconds: 120 }),
      sut.call(relay.app, 'PATCH', PATH, { hitlExpirySeconds: 3_600 }),
      sut.call(relay.app, 'PATCH', PATH, { durability: 'BEFORE_ANSWER' }),
    ]);

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await sut.call(relay.app, 'GET', PATH)).body).toEqual({
      rateLimits: { tenantPerMinute: 500, agentPerMinute: 50, subscriptionPerMinute: null },
      contentCapture: true,
      hitlWaitSeconds: 120,
      hitlExpirySeconds: 3_600,
      durability: 'BEFORE_ANSWER',
      shadowSampleRate: 1,
      allowedOrigins: null,
      toolDrift: 'HOLD',
      aiDisclosure: 'OFF',
      aiDisclosureText: null,
      contentMarking: 'OFF',
      paymentReviewThreshold: null,
    });
  });

  it('should keep each tenant’s settings to itself', async () => {
    const one = await writer();
    const other = await writer();

    await one.call(relay.app, 'PATCH', PATH, {
      rateLimits: { agentPerMinute: 7 },
      contentCapture: true,
    });

    expect((await other.call(relay.app, 'GET', PATH)).body).toEqual(DEFAULTS);
    expect(((await one.call(relay.app, 'GET', PATH)).body.rateLimits as Json).agentPerMinute).toBe(
      7,
    );
  });

  it('should answer 403 naming the role without TENANT:WRITE (or TENANT:READ to read), and 401 without a token', async () => {
    const tenantId = randomUUID();
    const reader = await TestCaller.create(relay.issuer, tenantId, ['TENANT:READ']);
    const nobody = await TestCaller.create(relay.issuer, tenantId, ['REGISTRY:ADMIN']);

    const patch = await reader.call<Problem>(relay.app, 'PATCH', PATH, { contentCapture: true });
    const read = await nobody.call<Problem>(relay.app, 'GET', PATH);
    const anonymous = await Promise.all([
      relay.app.inject({ method: 'GET', url: PATH }),
      relay.app.inject({ method: 'PATCH', url: PATH, payload: { contentCapture: true } }),
    ]);

    expect(patch.status).toBe(403);
    expect(patch.body.detail).toContain('TENANT:WRITE');
    expect(read.status).toBe(403);
    expect(read.body.detail).toContain('TENANT:READ');
    expect(anonymous.map((a) => a.statusCode)).toEqual([401, 401]);
    expect((await reader.call(relay.app, 'GET', PATH)).body).toEqual(DEFAULTS);
  });

  it('should store the disclosure and marking settings, the text cleared back to the platform’s with null (D45, D57, T70)', async () => {
    const sut = await writer();

    const set = await sut.call(relay.app, 'PATCH', PATH, {
      aiDisclosure: 'EVERY_MESSAGE',
      aiDisclosureText: 'An AI agent answers here.',
      contentMarking: 'ON',
    });
    const cleared = await sut.call(relay.app, 'PATCH', PATH, { aiDisclosureText: null });
    const invalid = await sut.call<Problem>(relay.app, 'PATCH', PATH, {
      aiDisclosure: 'ALWAYS',
      aiDisclosureText: '',
      contentMarking: null,
    });

    expect(set.body).toEqual({
      ...DEFAULTS,
      aiDisclosure: 'EVERY_MESSAGE',
      aiDisclosureText: 'An AI agent answers here.',
      contentMarking: 'ON',
    });
    expect(cleared.body).toEqual({
      ...DEFAULTS,
      aiDisclosure: 'EVERY_MESSAGE',
      contentMarking: 'ON',
    });
    expect(invalid.status).toBe(400);
    expect(fieldsOf(invalid.body)).toEqual(['aiDisclosure', 'aiDisclosureText', 'contentMarking']);
    const events = await eventually(() => {
      const found = settingsEvents(sut.tenantId);
      expect(found).toHaveLength(2);
      return found;
    });
    expect(events[0]).toEqual(
      expect.objectContaining({
        fields: ['aiDisclosure', 'aiDisclosureText', 'contentMarking'],
      }),
    );
  });

  it('should keep the payment review threshold exactly as a USD decimal, clear it with null and refuse anything else (D60, payments.md PY6)', async () => {
    const sut = await writer();

    const set = await sut.call(relay.app, 'PATCH', PATH, {
      paymentReviewThreshold: '12.500000000000000001',
    });
    const trimmed = await sut.call(relay.app, 'PATCH', PATH, { paymentReviewThreshold: '5.250' });
    const invalid = await Promise.all(
      [5, '-1', '1e3', '0x10', '1.', '', '1.0000000000000000001', '1234567890123'].map((value) =>
        sut.call<Problem>(relay.app, 'PATCH', PATH, { paymentReviewThreshold: value }),
      ),
    );
    const kept = await sut.call(relay.app, 'GET', PATH);
    const cleared = await sut.call(relay.app, 'PATCH', PATH, { paymentReviewThreshold: null });

    expect(set.body).toEqual({ ...DEFAULTS, paymentReviewThreshold: '12.500000000000000001' });
    expect(trimmed.body).toEqual({ ...DEFAULTS, paymentReviewThreshold: '5.25' });
    expect(invalid.map((a) => a.status)).toEqual(invalid.map(() => 400));
    expect(invalid.map((a) => fieldsOf(a.body))).toEqual(
      invalid.map(() => ['paymentReviewThreshold']),
    );
    expect(kept.body).toEqual({ ...DEFAULTS, paymentReviewThreshold: '5.25' });
    expect(cleared.body).toEqual(DEFAULTS);
    const events = await eventually(() => {
      const found = settingsEvents(sut.tenantId);
      expect(found).toHaveLength(3);
      return found;
    });
    expect(events[1]).toEqual(expect.objectContaining({ fields: ['paymentReviewThreshold'] }));
  });
});
