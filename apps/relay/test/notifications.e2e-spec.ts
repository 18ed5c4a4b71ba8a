import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Webhook } from 'standardwebhooks';
import { WebhookReceiver, eventually } from '@agp/testing';

import { HitlHolds } from '../src/hitl/hitl-holds.service';
import { RelayBed } from './support/relay-bed';
import { SlackStandIn } from './support/slack-stand-in';
import { TestCaller } from './support/relay-test-app';
import { SmtpTestServer } from './support/smtp-test-server';

interface Delivery {
  id: string;
  event: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attemptCount: number;
  lastError?: string;
  body: { id: string; type: string; data: Record<string, string> };
  attempts: Array<{ attempt: number; statusCode?: number; error?: string }>;
}

const CONSOLE = 'https://console.agp.test';
const SMTP_USER = 'relay@agp.test';
const SMTP_PASSWORD = `pw-${randomUUID()}`;
const BOT_TOKEN = `xoxb-${randomUUID()}`;
/** Held content the test looks for in every notification, and must never find (D58). */
const HELD_SECRET = `held-content-${randomUUID()}`;
const CA_FILE = join(tmpdir(), `agp-notify-ca-${randomUUID()}.pem`);
const MAX_ATTEMPTS = 6;

/** D58 end to end: real SMTP with STARTTLS, a Slack stand-in, Standard Webhooks, restarts. */
describe('notifications', () => {
  let smtp: SmtpTestServer;
  // Registered before the bed, so the certificate file exists when the relay starts.
  beforeAll(async () => {
    smtp = await SmtpTestServer.start({ user: SMTP_USER, password: SMTP_PASSWORD });
    writeFileSync(CA_FILE, smtp.certificatePem);
  });
  const relay = RelayBed.use('notifications', {
    // The stand-ins listen on 127.0.0.1 (D37 allows it only with EGRESS_ALLOW_PRIVATE).
    egressAllowPrivate: true,
    webhooks: { retryBaseMs: 50, maxAttempts: MAX_ATTEMPTS, pollMs: 50 },
    publicBaseUrl: `${CONSOLE}/`,
    smtpCaFile: CA_FILE,
  });
  let slack: SlackStandIn;
  let receiver: WebhookReceiver;
  /** Manages the targets (D58: NOTIFICATIONS); the reviewer reads holds (HITL_REQUESTS). */
  let notifier: TestCaller;
  let reviewer: TestCaller;

  beforeAll(async () => {
    notifier = await relay.caller(['NOTIFICATIONS:WRITE']);
    reviewer = await relay.caller(['HITL_REQUESTS:READ']);
    slack = await SlackStandIn.start(BOT_TOKEN, ['C0REVIEWERS']);
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await slack?.close();
    await receiver?.close();
    await smtp?.close();
  });

  async function target(body: Record<string, unknown>): Promise<{ id: string; secret?: string }> {
    const created = await notifier.call<{ id: string; secret?: string }>(
      relay.app,
      'POST',
      '/relay/v1/notification-targets',
      { name: `target-${randomUUID().slice(0, 8)}`, ...body },
    );
    expect(created.status).toBe(201);
    return created.body;
  }

  async function deliveries(targetId: string): Promise<Delivery[]> {
    const listed = await notifier.call<{ items: Delivery[] }>(
      relay.app,
      'GET',
      `/relay/v1/notification-targets/${targetId}/deliveries?pageSize=100`,
    );
    expect(listed.status).toBe(200);
    return listed.body.items;
  }

  /** A hop held for review through the relay's own hold path: its row, and its HITL event. */
  async function hold(): Promise<string> {
    const agent = { type: 'AGENT' as const, id: randomUUID(), name: 'booker' };
    const held = await relay.app.get(HitlHolds).hold({
      tenantId: relay.tenantId,
      protocol: 'MCP',
      direction: 'REQUEST',
      agent,
      source: agent,
      sink: { type: 'MCP_SERVER', id: randomUUID(), name: 'payments' },
      method: 'tools/call',
      tool: 'transfer',
      message: { params: { arguments: { note: HELD_SECRET } } },
      resendDigest: randomUUID().replace(/-/g, ''),
      reasons: [`a reviewer must see ${HELD_SECRET}`],
      policyIds: [randomUUID()],
      decisionId: randomUUID(),
      correlationId: randomUUID(),
      expirySeconds: 3_600,
    });
    return held.id;
  }

  function alert(severity: string): Promise<{ data: { alertId: string } }> {
    return relay.publisher.publish('MONITOR_ALERT_TRIGGERED', relay.tenantId, {
      alertId: randomUUID(),
      findingId: randomUUID(),
      detector: 'TENANT_ERROR_SPIKE',
      severity: severity as 'LOW',
      direction: 'SPIKE',
      subject: { type: 'TENANT', id: relay.tenantId },
      detectedAt: new Date().toISOString(),
      evidence: {
        kind: 'TENANT_ACTION_SPIKE',
        action: 'BLOCK',
        direction: 'SPIKE',
        observedTotal: 40,
        observedPerMinute: 8,
        baselinePerMinute: 1,
        ratio: 8,
        sampleMinutes: 5,
        topContributors: [],
        unattributedCount: 0,
      },
      summary: `error spike mentioning ${HELD_SECRET}`,
    });
  }

  it('should e-mail a new hold over STARTTLS with a link that opens it, and nothing held', async () => {
    const email = await target({
      kind: 'EMAIL',
      events: ['HITL_REQUEST_CREATED'],
      config: {
        host: 'localhost',
        port: smtp.port,
        from: 'governance@agp.test',
        to: ['reviewers@agp.test'],
        username: SMTP_USER,
        password: SMTP_PASSWORD,
      },
    });

    const holdId = await hold();

    const mail = await eventually(() => {
      const found = smtp.received.find((m) => m.parsed.text?.includes(holdId));
      expect(found).toBeDefined();
      return found!;
    }, 400);
    expect(mail.isSecure).toBe(true);
    expect(mail.user).toBe(SMTP_USER);
    expect(mail.envelopeTo).toEqual(['reviewers@agp.test']);
    expect(mail.parsed.subject).toContain(holdId);
    const link = /Open it: (\S+)/.exec(mail.parsed.text ?? '')?.[1];
    expect(link).toBe(`${CONSOLE}/review/${holdId}`);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    // The link's last segment is the hold, and the API the console calls opens it.
    const opened = await reviewer.call<{ id: string; status: string }>(
      relay.app,
      'GET',
      `/relay/v1/hitl-requests/${new URL(link!).pathname.split('/').pop()}`,
    );
    expect(opened.body).toMatchObject({ id: holdId, status: 'PENDING' });
    expect(JSON.stringify(mail.parsed)).not.toContain(HELD_SECRET);
    expect(JSON.stringify(mail.parsed)).not.toContain(SMTP_PASSWORD);
    const [listed] = await eventually(async () => {
      const items = await deliveries(email.id);
      expect(items.map((d) => d.status)).toEqual(['DELIVERED']);
      return items;
    });
    expect(listed).toMatchObject({ event: 'HITL_REQUEST_CREATED', attemptCount: 1 });
  });

  it('should post a hold notice to Slack with the bot token, and refuse a wrong token as failed', async () => {
    const good = await target({
      kind: 'SLACK',
      events: ['HITL_REQUEST_CREATED'],
      config: { botToken: BOT_TOKEN, channel: 'C0REVIEWERS', apiBaseUrl: slack.apiBaseUrl },
    });
    const wrong = await target({
      kind: 'SLACK',
      events: ['HITL_REQUEST_CREATED'],
      config: { botToken: 'xoxb-wrong', channel: 'C0REVIEWERS', apiBaseUrl: slack.apiBaseUrl },
    });

    const holdId = await hold();

    const post = await eventually(() => {
      const found = slack.posts.find((p) => p.body.text.includes(holdId));
      expect(found).toBeDefined();
      return found!;
    }, 400);
    expect(post.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(post.body.channel).toBe('C0REVIEWERS');
    expect(post.body.text).toContain(`<${CONSOLE}/review/${holdId}|`);
    expect(post.body.text).not.toContain(HELD_SECRET);
    await eventually(async () =>
      expect((await deliveries(good.id)).map((d) => d.status)).toEqual(['DELIVERED']),
    );
    const [refused] = await eventually(async () => {
      const items = await deliveries(wrong.id);
      expect(items.map((d) => d.status)).toEqual(['FAILED']);
      return items;
    }, 600);
    expect(refused.attemptCount).toBe(MAX_ATTEMPTS);
    expect(refused.lastError).toBe('Slack refused: invalid_auth');
  });

  it('should sign a webhook notice so that the standardwebhooks library verifies it', async () => {
    const hook = await target({
      kind: 'WEBHOOK',
      events: ['ALERT_RAISED', 'KILL_SWITCH_ENGAGED'],
      minSeverity: 'HIGH',
      config: { url: receiver.url('signed') },
    });

    await alert('LOW');
    const high = await alert('HIGH');
    const agentId = await relay.agent();
    const engaged = await relay.call<{ id: string }>('POST', '/relay/v1/kill-switches', {
      scope: 'AGENT',
      targetId: agentId,
      reason: `stop ${HELD_SECRET}`,
    });

    const received = await eventually(() => {
      expect(receiver.of('signed')).toHaveLength(2);
      return receiver.of('signed');
    }, 400);
    const verifier = new Webhook(hook.secret!);
    const bodies = received.map((r) =>
      verifier.verify(r.raw.toString('utf8'), r.headers as Record<string, string>),
    ) as Array<{ id: string; type: string; data: Record<string, string> }>;
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        received[0].raw.toString('utf8'),
        received[0].headers as Record<string, string>,
      ),
    ).toThrow();
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
    expect(byType.ALERT_RAISED?.data).toMatchObject({
      alertId: high.data.alertId,
      severity: 'HIGH',
      link: `${CONSOLE}/alerts/${high.data.alertId}`,
    });
    expect(byType.KILL_SWITCH_ENGAGED?.data).toMatchObject({
      killSwitchId: engaged.body.id,
      scope: 'AGENT',
      targetId: agentId,
    });
    expect(received.map((r) => r.headers['webhook-id'])).toEqual(bodies.map((b) => b.id));
    expect(received.map((r) => r.raw.toString('utf8')).join()).not.toContain(HELD_SECRET);
    // The LOW alert was below the target's threshold: no delivery was made for it.
    expect((await deliveries(hook.id)).map((d) => d.event).sort()).toEqual([
      'ALERT_RAISED',
      'KILL_SWITCH_ENGAGED',
    ]);
  });

  it('should retry a failing target with backoff and then list it as failed with every attempt', async () => {
    receiver.answer('down', 503);
    const hook = await target({
      kind: 'WEBHOOK',
      events: ['ALERT_RAISED'],
      config: { url: receiver.url('down') },
    });

    await alert('MEDIUM');

    const [failed] = await eventually(async () => {
      const items = await deliveries(hook.id);
      expect(items.map((d) => d.status)).toEqual(['FAILED']);
      return items;
    }, 600);
    expect(failed.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(failed.attempts.every((a) => a.statusCode === 503)).toBe(true);
    expect(receiver.of('down')).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(receiver.of('down').map((r) => r.headers['webhook-id']))).toEqual(
      new Set([failed.id]),
    );
  });
});
