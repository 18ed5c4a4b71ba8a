import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { TestCaller } from './support/relay-test-app';

type Problem = { status: number; detail: string; errors?: Array<{ field: string }> };
interface Target {
  id: string;
  name: string;
  kind: string;
  events: string[];
  minSeverity?: string;
  enabled: boolean;
  config: Record<string, unknown>;
  secret?: string;
}

const EMAIL = {
  kind: 'EMAIL',
  events: ['HITL_REQUEST_CREATED', 'ALERT_RAISED'],
  minSeverity: 'HIGH',
  config: {
    host: 'smtp.example.com',
    port: 587,
    from: 'governance@example.com',
    to: ['oncall@example.com'],
    username: 'relay',
    password: 'hunter2-secret',
  },
};

/** D58's CRUD, D37's write-only credentials, D12's answers, the NOTIFICATIONS permission. */
describe('notification targets', () => {
  const relay = RelayBed.use('notificationtargets');
  const path = '/relay/v1/notification-targets';
  let writer: TestCaller;
  let reader: TestCaller;

  beforeAll(async () => {
    writer = await relay.caller(['NOTIFICATIONS:ADMIN']);
    reader = await relay.caller(['NOTIFICATIONS:READ']);
  });

  async function create(body: Record<string, unknown>, as = writer) {
    return as.call<Target & Problem>(relay.app, 'POST', path, {
      name: `target-${randomUUID().slice(0, 8)}`,
      ...body,
    });
  }

  it('should create, read, list, change and delete a target, its password never answered', async () => {
    const created = await create(EMAIL);
    const read = await reader.call<Target>(relay.app, 'GET', `${path}/${created.body.id}`);
    const listed = await reader.call<{ items: Target[]; total: number }>(relay.app, 'GET', path);
    const moved = await writer.call<Target>(relay.app, 'PATCH', `${path}/${created.body.id}`, {
      config: { ...EMAIL.config, password: undefined, to: ['security@example.com'] },
      minSeverity: null,
      enabled: false,
    });
    const deleted = await writer.call(relay.app, 'DELETE', `${path}/${created.body.id}`);
    const gone = await reader.call<Problem>(relay.app, 'GET', `${path}/${created.body.id}`);

    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${path}/${created.body.id}`);
    expect(created.body).toMatchObject({
      kind: 'EMAIL',
      events: EMAIL.events,
      minSeverity: 'HIGH',
      enabled: true,
      config: { ...EMAIL.config, password: '********' },
    });
    expect(created.body.secret).toBeUndefined();
    expect(read.body).toEqual(expect.objectContaining({ config: created.body.config }));
    expect(listed.body.items.map((t) => t.id)).toContain(created.body.id);
    expect(JSON.stringify([created.body, read.body, listed.body])).not.toContain('hunter2');
    // W15: the PATCH left the password out, so it was kept.
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      enabled: false,
      config: { to: ['security@example.com'], password: '********' },
    });
    expect(moved.body.minSeverity).toBeUndefined();
    expect(deleted.status).toBe(204);
    expect(gone.status).toBe(404);
  });

  it('should record each change as ADMIN_CHANGE with the credential redacted (D42)', async () => {
    const created = await create(EMAIL);
    await writer.call(relay.app, 'PATCH', `${path}/${created.body.id}`, {
      config: { ...EMAIL.config, password: 'a-new-secret-pw' },
    });
    await writer.call(relay.app, 'DELETE', `${path}/${created.body.id}`);

    const changes = await eventually(() => {
      const found = relay.tap
        .ofType('ADMIN_CHANGE')
        .filter((e) => (e.data.sink as { id?: string } | undefined)?.id === created.body.id);
      expect(found).toHaveLength(3);
      return found;
    });
    expect(changes.map((e) => e.data.change)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    expect(changes[0].data.sink).toMatchObject({ type: 'NOTIFICATION_TARGET' });
    // The password changed: listed, its values redacted.
    expect(changes[1].data.fields).toEqual(['credentials']);
    expect((changes[1].data.changes as Record<string, unknown>).credentials).toEqual({
      before: '[redacted]',
      after: '[redacted]',
    });
    expect(JSON.stringify(changes)).not.toMatch(/hunter2|a-new-secret-pw/);
  });

  it('should answer a webhook target its Standard Webhooks secret once, never on reads', async () => {
    const created = await create({
      kind: 'WEBHOOK',
      events: ['KILL_SWITCH_ENGAGED'],
      config: { url: 'https://hooks.example.com/agp' },
    });
    const read = await reader.call<Target>(relay.app, 'GET', `${path}/${created.body.id}`);

    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(read.body.secret).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain(created.body.secret!.slice(6));
  });

  it('should keep a Slack bot token write-only and let the channel change without it', async () => {
    const created = await create({
      kind: 'SLACK',
      events: ['HITL_REQUEST_CREATED'],
      config: { botToken: 'xoxb-write-only', channel: 'C01' },
    });
    const moved = await writer.call<Target>(relay.app, 'PATCH', `${path}/${created.body.id}`, {
      config: { channel: 'C02' },
    });

    expect(created.body.config).toEqual({ botToken: '********', channel: 'C01' });
    expect(moved.status).toBe(200);
    expect(moved.body.config).toEqual({ botToken: '********', channel: 'C02' });
  });

  it('should list every bad field of a config with 400, unknown ones included', async () => {
    const email = await create({
      kind: 'EMAIL',
      events: ['ALERT_RAISED'],
      config: { host: 'not a host', port: 70_000, from: 'nobody', to: [], extra: 1 },
    });
    const slack = await create({ kind: 'SLACK', events: ['ALERT_RAISED'], config: {} });
    const body = await create({
      kind: 'PAGER',
      events: ['NOTHING'],
      minSeverity: 'SEVERE',
      config: 'x',
    });

    expect(email.status).toBe(400);
    expect(email.body.errors?.map((e) => e.field).sort()).toEqual(
      expect.arrayContaining([
        'config.extra',
        'config.from',
        'config.host',
        'config.port',
        'config.to',
      ]),
    );
    expect(slack.body.errors?.map((e) => e.field)).toEqual(
      expect.arrayContaining(['config.botToken', 'config.channel']),
    );
    expect(body.status).toBe(400);
    expect(body.body.errors?.map((e) => e.field)).toEqual(
      expect.arrayContaining(['kind', 'events', 'minSeverity', 'config']),
    );
  });

  it('should refuse with 400 a target that points where D37 forbids', async () => {
    const metadata = await create({
      kind: 'WEBHOOK',
      events: ['ALERT_RAISED'],
      config: { url: 'http://169.254.169.254/latest' },
    });
    const privateHost = await create({
      kind: 'EMAIL',
      events: ['ALERT_RAISED'],
      config: { host: '10.1.2.3', port: 25, from: 'a@example.com', to: ['b@example.com'] },
    });
    const slack = await create({
      kind: 'SLACK',
      events: ['ALERT_RAISED'],
      config: { botToken: 'xoxb-1', channel: 'C1', apiBaseUrl: 'http://127.0.0.1:9/api' },
    });

    expect(metadata.status).toBe(400);
    expect(metadata.body.errors?.map((e) => e.field)).toEqual(['config.url']);
    expect(privateHost.body.errors?.map((e) => e.field)).toEqual(['config.host']);
    expect(slack.body.errors?.map((e) => e.field)).toEqual(['config.apiBaseUrl']);
  });

  it('should answer 409 to a second target of the same name, and refuse a change of kind', async () => {
    const name = `dup-${randomUUID().slice(0, 8)}`;
    await create({ ...EMAIL, name });
    const again = await create({ ...EMAIL, name });
    const other = await create(EMAIL);
    const renamed = await writer.call<Problem>(relay.app, 'PATCH', `${path}/${other.body.id}`, {
      name,
    });
    const rekinded = await writer.call<Problem>(relay.app, 'PATCH', `${path}/${other.body.id}`, {
      kind: 'SLACK',
    });

    expect(again.status).toBe(409);
    expect(renamed.status).toBe(409);
    expect(rekinded.status).toBe(400);
    expect(rekinded.body.errors?.map((e) => e.field)).toEqual(['kind']);
  });

  it('should refuse callers without NOTIFICATIONS and hide another tenant’s targets', async () => {
    const created = await create(EMAIL);
    const outsider = await relay.caller(['TENANT:ADMIN', 'HITL_REQUESTS:ADMIN']);
    const stranger = await relay.caller(['NOTIFICATIONS:ADMIN'], randomUUID());

    const listed = await outsider.call<Problem>(relay.app, 'GET', path);
    const readerWrites = await create(EMAIL, reader);
    const readerDeletes = await reader.call(relay.app, 'DELETE', `${path}/${created.body.id}`);
    const foreignRead = await stranger.call(relay.app, 'GET', `${path}/${created.body.id}`);
    const foreignDeliveries = await stranger.call(
      relay.app,
      'GET',
      `${path}/${created.body.id}/deliveries`,
    );
    const foreignList = await stranger.call<{ items: Target[] }>(relay.app, 'GET', path);

    expect(listed.status).toBe(403);
    expect(listed.body.detail).toContain('NOTIFICATIONS:READ');
    expect(readerWrites.status).toBe(403);
    expect(readerDeletes.status).toBe(403);
    expect(foreignRead.status).toBe(404);
    expect(foreignDeliveries.status).toBe(404);
    expect(foreignList.body.items).toEqual([]);
  });
});
