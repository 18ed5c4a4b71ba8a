import 'reflect-metadata';

import { randomUUID } from 'node:crypto';

import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { EVENT_TYPES, EventEnvelope } from '@agp/contracts';
import Ajv2020 from 'ajv/dist/2020';

import { asyncApiDocument } from './asyncapi';
import { assertValidEnvelope } from './envelope-validation';

const document = asyncApiDocument();
const schemas = (document.components as { schemas: Record<string, object> }).schemas;

function envelopeValidator(type: string) {
  const ajv = new Ajv2020({ strict: false, unicodeRegExp: false });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  ajv.addSchema({ $id: 'asyncapi', components: { schemas } });
  return ajv.compile({ $ref: `asyncapi#/components/schemas/${type}Envelope` });
}

function envelope(type: string, data: object): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    tenantId: randomUUID(),
    correlationId: 'corr-1',
    data,
  };
}

const ALERT = {
  alertId: randomUUID(),
  findingId: randomUUID(),
  detector: 'AGENT_VOLUME_ANOMALY',
  severity: 'HIGH',
  direction: 'SPIKE',
  subject: { type: 'AGENT', id: randomUUID() },
  detectedAt: '2026-11-25T10:00:00.000Z',
  evidence: {
    kind: 'ENTITY_VOLUME',
    subjectType: 'AGENT',
    subjectId: randomUUID(),
    direction: 'SPIKE',
    observedTotal: 1200,
    observedPerMinute: 20,
    baselinePerMinute: 2,
    ratio: 10,
    sampleMinutes: 60,
  },
};

describe('asyncApiDocument', () => {
  it('is a valid AsyncAPI 3 document by the official parser', async () => {
    const { diagnostics } = await new Parser().parse(JSON.stringify(document));
    // Warnings (style hints) do not make the document invalid.
    expect(
      diagnostics.filter((diagnostic) => DiagnosticSeverity[diagnostic.severity] === 'Error'),
    ).toEqual([]);
  });

  it('has one channel on the events subject of every event type', () => {
    const channels = document.channels as Record<string, { address: string }>;
    expect(Object.keys(channels).sort()).toEqual([...EVENT_TYPES].sort());
    expect(channels.MONITOR_ALERT_TRIGGERED.address).toBe(
      '{prefix}.events.MONITOR_ALERT_TRIGGERED',
    );
  });

  it('accepts an envelope the consumers accept, and refuses one they park', () => {
    const validate = envelopeValidator('MONITOR_ALERT_TRIGGERED');
    const good = envelope('MONITOR_ALERT_TRIGGERED', ALERT);
    expect(() => assertValidEnvelope(good)).not.toThrow();
    expect(validate(good)).toBe(true);

    for (const bad of [
      { ...ALERT, severity: 'APOCALYPTIC' },
      { ...ALERT, alertId: 'not-a-uuid' },
      { ...ALERT, subject: undefined },
    ]) {
      const parked = envelope('MONITOR_ALERT_TRIGGERED', bad);
      expect(() => assertValidEnvelope(parked)).toThrow();
      expect(validate(parked)).toBe(false);
    }
  });

  it('ties each envelope to its own type', () => {
    const validate = envelopeValidator('AGENT_LIFECYCLE');
    expect(validate(envelope('TENANT_LIFECYCLE', {}))).toBe(false);
  });

  it('marks ADMIN_CHANGE as beyond the specification on its channel and message, and no specified type', () => {
    const channels = document.channels as Record<string, Record<string, unknown>>;
    const messages = (document.components as { messages: Record<string, Record<string, unknown>> })
      .messages;
    expect(channels.ADMIN_CHANGE).toMatchObject({
      'x-beyond-specification': true,
      description: expect.stringMatching(/^Beyond the specification \(D42\)/),
    });
    expect(messages.ADMIN_CHANGE['x-beyond-specification']).toBe(true);
    expect(channels.AGENT_LIFECYCLE).not.toHaveProperty('x-beyond-specification');
  });

  it('accepts an ADMIN_CHANGE with its target and changed fields, and parks one without a target', () => {
    const validate = envelopeValidator('ADMIN_CHANGE');
    const data = {
      actor: { type: 'USER', id: 'u-1' },
      change: 'UPDATED',
      target: { kind: 'CHANNEL', id: 'c-1', name: 'support' },
      fields: ['name'],
      changes: { name: { before: 'a', after: 'b' } },
    };
    expect(() => assertValidEnvelope(envelope('ADMIN_CHANGE', data))).not.toThrow();
    expect(validate(envelope('ADMIN_CHANGE', data))).toBe(true);
    const parked = envelope('ADMIN_CHANGE', { ...data, target: undefined });
    expect(() => assertValidEnvelope(parked)).toThrow();
    expect(validate(parked)).toBe(false);
  });
});
