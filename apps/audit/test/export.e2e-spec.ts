import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuditEventType } from '@agp/contracts';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { IngestService } from '../src/ingest/ingest.service';
import { TestCaller, auditEnvelope, startAudit } from './support/audit-test-app';
import { parseCsv } from './support/csv';

const HEADER = [
  'id',
  'occurredAt',
  'tenantId',
  'eventType',
  'protocol',
  'action',
  'actorType',
  'actorId',
  'sourceType',
  'sourceId',
  'sinkType',
  'sinkId',
  'policyId',
  'correlationId',
  'summary',
];
const T0 = Date.parse('2026-02-01T00:00:00.000Z');
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();

describe('operation 6: GET /audit/v1/events/export (D17)', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let reader: TestCaller;
  let issuer: TestTokenIssuer;
  const tenantId = randomUUID();
  const policyA = randomUUID();
  // [type, protocol, action, minute]: each filter alone and combined picks a known subset.
  const rows: Array<
    [AuditEventType, 'MCP' | 'REST' | 'CHANNEL', 'LOG' | 'BLOCK' | 'MASK', number]
  > = [
    ['COMMUNICATION_AUDIT', 'MCP', 'LOG', 0],
    ['COMMUNICATION_AUDIT', 'REST', 'BLOCK', 1],
    ['PII_DETECTION', 'MCP', 'MASK', 2],
    ['SECRET_DETECTION', 'CHANNEL', 'BLOCK', 3],
    ['HITL', 'REST', 'LOG', 4],
  ];
  const ids: string[] = [];

  async function exportCsv(query: string): Promise<{
    status: number;
    records: string[][];
    headers: Record<string, unknown>;
    text: string;
  }> {
    const response = await reader.call(
      app,
      'GET',
      `/audit/v1/events/export${query ? `?${query}` : ''}`,
    );
    return {
      status: response.status,
      headers: response.headers,
      text: response.text,
      records: response.status === 200 ? parseCsv(response.text) : [],
    };
  }

  beforeAll(async () => {
    db = await createTestDatabase('audit_export');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer });
    reader = await TestCaller.create(issuer, tenantId, ['AUDIT:READ']);
    const envelopes = rows.map(([type, protocol, action, minute]) =>
      auditEnvelope(
        tenantId,
        type,
        { protocol, action, policyIds: [policyA], summary: `row ${minute}` },
        { occurredAt: at(minute) },
      ),
    );
    ids.push(...envelopes.map((e) => e.id));
    await app.get(IngestService).ingest(envelopes);
    await app
      .get(IngestService)
      .ingest([
        auditEnvelope(
          randomUUID(),
          'HITL',
          { protocol: 'REST', action: 'LOG' },
          { occurredAt: at(4) },
        ),
      ]);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('should stream every event of the tenant oldest first with the D17 columns and headers when no filter is given', async () => {
    const { status, records, headers } = await exportCsv('');
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(headers['content-disposition'])).toMatch(
      /^attachment; filename="audit-events-.+\.csv"$/,
    );
    expect(records[0]).toEqual(HEADER);
    expect(records.slice(1).map((r) => r[0])).toEqual(ids);
    expect(records[1]).toEqual([
      ids[0],
      at(0),
      tenantId,
      'COMMUNICATION_AUDIT',
      'MCP',
      'LOG',
      '',
      '',
      '',
      '',
      '',
      '',
      policyA,
      expect.any(String),
      'row 0',
    ]);
  });

  it.each([
    ['eventType=COMMUNICATION_AUDIT', [0, 1]],
    ['eventType=PII_DETECTION,SECRET_DETECTION', [2, 3]],
    ['eventType=HITL&eventType=PII_DETECTION', [2, 4]],
    ['protocol=MCP', [0, 2]],
    ['protocol=REST,CHANNEL', [1, 3, 4]],
    ['action=BLOCK', [1, 3]],
    ['action=LOG&action=MASK', [0, 2, 4]],
    [`from=${at(3)}`, [3, 4]],
    [`to=${at(2)}`, [0, 1]],
    [`from=${at(1)}&to=${at(4)}`, [1, 2, 3]],
    ['eventType=COMMUNICATION_AUDIT&action=BLOCK', [1]],
    ['protocol=MCP&action=MASK&eventType=PII_DETECTION', [2]],
    [`protocol=REST&from=${at(2)}`, [4]],
    [`eventType=COMMUNICATION_AUDIT,HITL&protocol=REST&action=LOG&from=${at(0)}&to=${at(5)}`, [4]],
    ['eventType=RATE_LIMIT', []],
  ])('should export exactly the matching rows when filtered by %s', async (query, expected) => {
    const { status, records } = await exportCsv(query);
    expect(status).toBe(200);
    expect(records[0]).toEqual(HEADER);
    expect(records.slice(1).map((r) => r[0])).toEqual(expected.map((i) => ids[i]));
  });

  it.each([
    ['eventType=COMMUNICATION_AUDIT,NOT_A_TYPE', 'eventType', ['NOT_A_TYPE']],
    ['protocol=SMTP&protocol=FTP', 'protocol', ['SMTP', 'FTP']],
    ['action=BLOCK,maybe', 'action', ['maybe']],
  ])(
    'should answer 400 naming the unknown values when filtered by %s',
    async (query, field, unknown) => {
      const response = await reader.call<{ errors: Array<{ field: string; message: string }> }>(
        app,
        'GET',
        `/audit/v1/events/export?${query}`,
      );
      expect(response.status).toBe(400);
      const error = response.body.errors.find((e) => e.field === field);
      unknown.forEach((value) => expect(error?.message).toContain(value));
    },
  );

  it('should answer 400 listing every bad parameter when several are bad at once', async () => {
    const response = await reader.call<{ errors: Array<{ field: string }> }>(
      app,
      'GET',
      '/audit/v1/events/export?action=NOPE&from=yesterday&policyId=x',
    );
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e) => e.field)).toEqual(
      expect.arrayContaining(['action', 'from', 'policyId']),
    );
  });

  describe('CSV cells', () => {
    const cases: Array<[string, string, string]> = [
      ['a comma', 'one, two', 'one, two'],
      ['quotes', 'say "hi"', 'say "hi"'],
      ['a line feed', 'line1\nline2', 'line1\nline2'],
      ['a CRLF inside', 'line1\r\nline2', 'line1\r\nline2'],
      ['unicode', 'naïve 日本語 🚀 ×', 'naïve 日本語 🚀 ×'],
      ['a leading =', '=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
      ['a leading +', '+1+2', `'+1+2`],
      ['a leading -', '-2+3', `'-2+3`],
      ['a leading @', '@SUM(A1)', `'@SUM(A1)`],
      ['a leading tab', '\tcmd', `'\tcmd`],
      ['a leading carriage return', '\rcmd', `'\rcmd`],
      ['a formula after text', 'total =1+1', 'total =1+1'],
    ];

    it.each(cases)(
      'should read back the summary exactly when it holds %s',
      async (_name, summary, expected) => {
        const caller = await TestCaller.create(issuer, randomUUID(), ['AUDIT:READ']);
        const envelope = auditEnvelope(caller.tenantId, 'COMMUNICATION_AUDIT', {
          summary,
          actor: { type: 'USER', id: '=cmd|calc', label: 'x' },
        });
        await app.get(IngestService).ingest([envelope]);
        const response = await caller.call(app, 'GET', '/audit/v1/events/export');
        const records = parseCsv(response.text);
        expect(records).toHaveLength(2);
        expect(records[1]?.[14]).toBe(expected);
        expect(records[1]?.[7]).toBe(`'=cmd|calc`);
      },
    );
  });
});
