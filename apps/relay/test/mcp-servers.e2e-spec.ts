import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  TestTokenIssuer,
  createTestDatabase,
  eventually,
  uniqueNatsPrefix,
} from '@agp/testing';
import { Client } from 'pg';

import { decodeSecretsKey } from '../src/config/secrets-key';
import { CredentialCipher } from '../src/mcp-servers/credential-cipher';
import { EventTap } from './support/event-tools';
import { ADMIN_PERMS, TEST_SECRETS_KEY, TestCaller, startRelay } from './support/relay-test-app';

type Json = Record<string, unknown>;
type Problem = { type: string; detail: string; errors?: Array<{ field: string; message: string }> };

const PATH = '/relay/v1/mcp-servers';
const PUBLIC_URL = 'https://tools.acme.example/mcp';

/** D37: what the relay needs to reach an MCP server: URL rules, sealed credential, timeout. */
describe('MCP servers (D37)', () => {
  let db: TestDatabase;
  let prefix: string;
  let app: NestFastifyApplication;
  let lenient: NestFastifyApplication;
  let tap: EventTap;
  let issuer: TestTokenIssuer;
  let sql: Client;
  let admin: TestCaller;
  const cipher = new CredentialCipher(decodeSecretsKey(TEST_SECRETS_KEY));

  beforeAll(async () => {
    db = await createTestDatabase('relay_mcp_servers');
    prefix = uniqueNatsPrefix('relaymcps');
    issuer = await TestTokenIssuer.create();
    app = await startRelay({ databaseUrl: db.url, prefix, issuer });
    // A second replica whose operator allows private ranges (as the embedded default does).
    lenient = await startRelay({ databaseUrl: db.url, prefix, issuer, egressAllowPrivate: true });
    tap = await EventTap.open(prefix);
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    admin = await TestCaller.create(issuer, randomUUID(), ADMIN_PERMS);
  });

  afterAll(async () => {
    await sql?.end();
    await tap?.close();
    await lenient?.close();
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  const server = (extra: Json = {}): Json => ({
    name: `tools-${randomUUID()}`,
    url: PUBLIC_URL,
    transport: 'STREAMABLE_HTTP',
    ...extra,
  });

  async function stored(id: string): Promise<Json> {
    const { rows } = await sql.query<Json>(
      'SELECT credential_ciphertext, credential_header, timeout_ms FROM relay.mcp_servers WHERE id = $1',
      [id],
    );
    return rows[0];
  }

  const fieldsOf = (problem: Problem): string[] =>
    [...new Set((problem.errors ?? []).map((e) => e.field))].sort();

  describe('credential', () => {
    it('should store the credential sealed and answer only that one is set when it is given', async () => {
      const created = await admin.call(
        app,
        'POST',
        PATH,
        server({ credential: 'sk-live-123 456' }),
      );
      const id = String(created.body.id);

      const read = await admin.call(app, 'GET', `${PATH}/${id}`);
      const list = await admin.call<{ items: Json[] }>(
        app,
        'GET',
        `${PATH}?name=${created.body.name as string}`,
      );
      const row = await stored(id);

      expect(created.status).toBe(201);
      expect(created.body).toEqual(
        expect.objectContaining({
          credential: '********',
          credentialHeader: 'Authorization',
          timeoutMs: 30_000,
        }),
      );
      expect(read.body).toEqual(created.body);
      expect(list.body.items).toEqual([created.body]);
      expect(String(row.credential_ciphertext)).not.toContain('sk-live');
      expect(String(row.credential_ciphertext)).toMatch(/^v2\./);
      expect(cipher.decrypt(String(row.credential_ciphertext))).toBe('sk-live-123 456');
      expect(JSON.stringify([created.body, read.body, list.body])).not.toContain('sk-live');
    });

    it('should leave the credential out of the answer when none is set', async () => {
      const created = await admin.call(app, 'POST', PATH, server());

      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('credential');
      expect((await stored(String(created.body.id))).credential_ciphertext).toBeNull();
    });

    it('should replace, re-head and remove the credential when patched, and never put it in an event', async () => {
      const created = await admin.call(app, 'POST', PATH, server({ credential: 'first-secret' }));
      const id = String(created.body.id);
      const url = `${PATH}/${id}`;
      const sealedFirst = String((await stored(id)).credential_ciphertext);

      const replaced = await admin.call(app, 'PATCH', url, {
        credential: 'second-secret',
        credentialHeader: 'X-Api-Key',
      });
      const sealedSecond = String((await stored(id)).credential_ciphertext);
      const renamedOnly = await admin.call(app, 'PATCH', url, { description: 'd' });
      const sealedThird = String((await stored(id)).credential_ciphertext);
      const reset = await admin.call(app, 'PATCH', url, { credentialHeader: null });
      const removed = await admin.call(app, 'PATCH', url, { credential: null });

      expect(replaced.body).toEqual(
        expect.objectContaining({ credential: '********', credentialHeader: 'X-Api-Key' }),
      );
      expect(sealedSecond).not.toBe(sealedFirst);
      expect(cipher.decrypt(sealedSecond)).toBe('second-secret');
      expect(renamedOnly.body.credential).toBe('********');
      expect(sealedThird).toBe(sealedSecond);
      expect(reset.body.credentialHeader).toBe('Authorization');
      expect(removed.status).toBe(200);
      expect(removed.body).not.toHaveProperty('credential');
      expect((await stored(id)).credential_ciphertext).toBeNull();
      const events = await eventually(() => {
        const mine = tap
          .ofType('MCP_LIFECYCLE')
          .filter((e) => (e.data.details as Json).mcpServerId === id);
        expect(mine).toHaveLength(5);
        return mine;
      });
      const text = JSON.stringify(events);
      expect(text).not.toContain('secret');
      expect(text).not.toContain(sealedFirst.split('.')[4]);
      expect((events[1].data.details as Json).fields).toEqual(
        expect.arrayContaining(['credential', 'credentialHeader']),
      );
    });

    it.each([
      [{ credential: '' }, 'credential'],
      [{ credential: 'line\nbreak' }, 'credential'],
      [{ credential: ' padded' }, 'credential'],
      [{ credential: 'x'.repeat(8_193) }, 'credential'],
      [{ credential: 42 }, 'credential'],
      [{ credentialHeader: 'Bad Header' }, 'credentialHeader'],
      [{ credentialHeader: 'X-Key:' }, 'credentialHeader'],
      [{ credentialHeader: 'Content-Type' }, 'credentialHeader'],
      [{ credentialHeader: 'host' }, 'credentialHeader'],
      [{ credentialHeader: 'mcp-session-id' }, 'credentialHeader'],
      [{ credentialHeader: '' }, 'credentialHeader'],
    ])('should answer 400 naming the field when given %p', async (extra, field) => {
      const created = await admin.call<Problem>(app, 'POST', PATH, server(extra));

      expect(created.status).toBe(400);
      expect(fieldsOf(created.body)).toEqual([field]);
    });
  });

  describe('transport', () => {
    it('should refuse SSE with a 400 saying the relay speaks Streamable HTTP only, on create and update', async () => {
      const created = await admin.call<Problem>(app, 'POST', PATH, server({ transport: 'SSE' }));
      const existing = await admin.call(app, 'POST', PATH, server());
      const patched = await admin.call<Problem>(
        app,
        'PATCH',
        `${PATH}/${String(existing.body.id)}`,
        {
          transport: 'SSE',
        },
      );

      for (const answer of [created, patched]) {
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toEqual([
          { field: 'transport', message: expect.stringContaining('Streamable HTTP only') },
        ]);
      }
      expect(created.body.errors![0].message).toContain('SSE');
    });
  });

  describe('timeoutMs', () => {
    it.each([100, 300_000, 1_500])(
      'should keep %p when it is within 100..300000',
      async (timeoutMs) => {
        const created = await admin.call(app, 'POST', PATH, server({ timeoutMs }));

        expect(created.body.timeoutMs).toBe(timeoutMs);
        expect((await stored(String(created.body.id))).timeout_ms).toBe(timeoutMs);
      },
    );

    it.each([99, 300_001, 0, -1, 1.5, '1000', null])(
      'should answer 400 naming timeoutMs when given %p',
      async (timeoutMs) => {
        const created = await admin.call<Problem>(app, 'POST', PATH, server({ timeoutMs }));

        expect(created.status).toBe(400);
        expect(fieldsOf(created.body)).toEqual(['timeoutMs']);
      },
    );

    it('should change the timeout when patched and refuse one out of bounds', async () => {
      const created = await admin.call(app, 'POST', PATH, server());
      const url = `${PATH}/${String(created.body.id)}`;

      const changed = await admin.call(app, 'PATCH', url, { timeoutMs: 5_000 });
      const tooLong = await admin.call<Problem>(app, 'PATCH', url, { timeoutMs: 300_001 });
      const cleared = await admin.call<Problem>(app, 'PATCH', url, { timeoutMs: null });

      expect(changed.body.timeoutMs).toBe(5_000);
      expect(fieldsOf(tooLong.body)).toEqual(['timeoutMs']);
      expect(fieldsOf(cleared.body)).toEqual(['timeoutMs']);
      expect((await admin.call(app, 'GET', url)).body.timeoutMs).toBe(5_000);
    });
  });

  describe('egress (D37)', () => {
    const alwaysRefused = [
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://[fd00:ec2::254]/',
      'http://169.254.1.1/mcp',
      'http://[fe80::1]/mcp',
      'http://user:pass@tools.acme.example/mcp',
    ];
    const privateOnly = [
      'http://127.0.0.1:3000/mcp',
      'http://localhost:3000/mcp',
      'http://10.0.0.7/mcp',
      'http://172.20.1.1/mcp',
      'http://192.168.1.5/mcp',
      'http://[::1]:3000/mcp',
      'http://[fd12:3456::1]/mcp',
    ];

    it.each(alwaysRefused)('should refuse %s even when private ranges are allowed', async (url) => {
      const strict = await admin.call<Problem>(app, 'POST', PATH, server({ url }));
      const relaxed = await admin.call<Problem>(lenient, 'POST', PATH, server({ url }));

      for (const answer of [strict, relaxed]) {
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer.body)).toEqual(['url']);
      }
    });

    it.each(privateOnly)(
      'should refuse %s unless the operator allows private ranges',
      async (url) => {
        const strict = await admin.call<Problem>(app, 'POST', PATH, server({ url }));
        const relaxed = await admin.call(lenient, 'POST', PATH, server({ url }));

        expect(strict.status).toBe(400);
        expect(strict.body.errors).toEqual([
          { field: 'url', message: expect.stringContaining('EGRESS_ALLOW_PRIVATE') },
        ]);
        expect(relaxed.status).toBe(201);
        expect(relaxed.body.url).toBe(url);
      },
    );

    it('should check the URL when it is patched', async () => {
      const created = await admin.call(app, 'POST', PATH, server());
      const url = `${PATH}/${String(created.body.id)}`;

      const metadata = await admin.call<Problem>(app, 'PATCH', url, {
        url: 'http://169.254.169.254/',
      });
      const loopback = await admin.call<Problem>(app, 'PATCH', url, { url: 'http://127.0.0.1/' });
      const ftp = await admin.call<Problem>(app, 'PATCH', url, {
        url: 'ftp://tools.acme.example/',
      });
      const moved = await admin.call(app, 'PATCH', url, { url: 'https://tools2.acme.example/mcp' });

      expect([metadata.status, loopback.status, ftp.status]).toEqual([400, 400, 400]);
      expect([metadata, loopback, ftp].map((a) => fieldsOf(a.body))).toEqual([
        ['url'],
        ['url'],
        ['url'],
      ]);
      expect(moved.body.url).toBe('https://tools2.acme.example/mcp');
    });
  });

  describe('errors', () => {
    it('should answer 400 listing every bad field, unknown and null ones included', async () => {
      const created = await admin.call<Problem>(app, 'POST', PATH, {
        name: '',
        url: 'nope',
        transport: 'CARRIER_PIGEON',
        timeoutMs: 'soon',
        extra: true,
      });
      const existing = await admin.call(app, 'POST', PATH, server());
      const patched = await admin.call<Problem>(
        app,
        'PATCH',
        `${PATH}/${String(existing.body.id)}`,
        {
          name: null,
          url: null,
          transport: null,
          color: 'red',
        },
      );

      expect(created.status).toBe(400);
      expect(fieldsOf(created.body)).toEqual(['extra', 'name', 'timeoutMs', 'transport', 'url']);
      expect(patched.status).toBe(400);
      expect(fieldsOf(patched.body)).toEqual(['color', 'name', 'transport', 'url']);
    });

    it('should answer 404 when the server is unknown or another tenant’s', async () => {
      const other = await TestCaller.create(issuer, randomUUID(), ADMIN_PERMS);
      const theirs = await other.call(app, 'POST', PATH, server({ credential: 'theirs' }));
      const url = `${PATH}/${String(theirs.body.id)}`;

      const answers = [
        await admin.call(app, 'GET', url),
        await admin.call(app, 'PATCH', url, { credential: 'mine' }),
        await admin.call(app, 'DELETE', url),
        await admin.call(app, 'GET', `${PATH}/${randomUUID()}`),
      ];

      expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
      expect(
        cipher.decrypt(String((await stored(String(theirs.body.id))).credential_ciphertext)),
      ).toBe('theirs');
    });

    it('should answer 409 when the name is taken in the tenant', async () => {
      const body = server();
      await admin.call(app, 'POST', PATH, body);

      const again = await admin.call<Problem>(app, 'POST', PATH, { ...body, credential: 'c' });

      expect(again.status).toBe(409);
    });

    it('should answer 403 naming the role when the caller may only read, and 401 without a token', async () => {
      const reader = await TestCaller.create(issuer, admin.tenantId, ['MCP_REGISTRY:READ']);
      const existing = await admin.call(app, 'POST', PATH, server());

      const create = await reader.call<Problem>(app, 'POST', PATH, server({ credential: 'c' }));
      const patch = await reader.call<Problem>(
        app,
        'PATCH',
        `${PATH}/${String(existing.body.id)}`,
        {
          credential: 'c',
        },
      );
      const read = await reader.call(app, 'GET', `${PATH}/${String(existing.body.id)}`);
      const anonymous = await app.inject({ method: 'POST', url: PATH, payload: server() });

      expect([create.status, patch.status]).toEqual([403, 403]);
      expect(create.body.detail).toContain('MCP_REGISTRY:WRITE');
      expect(read.status).toBe(200);
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
