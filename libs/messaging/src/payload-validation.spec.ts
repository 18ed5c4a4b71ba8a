import 'reflect-metadata';

import {
  AdminChangeData,
  AgentLifecycleData,
  AuditableEventData,
  CredentialRotationData,
  McpGrantsChangedData,
  EVENT_TYPES,
  MonitorConfigChangedData,
  PolicyLifecycleData,
  SubscriptionChangedData,
  TenantLifecycleData,
  payloadClassOf,
} from '@agp/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { compiledValidatorOf, invalidPayloadProperties } from './payload-validation';

type PayloadClass = new () => object;

const UUID = '7d3c4a4e-2f0b-4c8e-9a51-0b6f2d1e9c77';
const COMMON = {
  actor: { type: 'AGENT', id: 'agent-1', label: 'Bench agent' },
  source: { type: 'AGENT', id: 'agent-1' },
  sink: { type: 'MCP_SERVER', id: 'mcp-1', label: 'Tools' },
  protocol: 'MCP',
  action: 'MASK',
  policyIds: [UUID],
  summary: 'tools/call "read_file"',
  details: { method: 'tools/call', nested: { size: 3 } },
  decision: {
    reasons: ['pii found'],
    detections: [{ kind: 'REGEX', label: 'email', path: '$.params' }],
    masks: [{ path: '$.params.to', pattern: '[^@]+@', label: 'email' }],
  },
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  content: 'hello',
  contentDigest: 'a'.repeat(64),
};

/**
 * A valid payload of every class that gets a compiled validator: each is fuzzed below. A class
 * with a conditional constraint (`@ValidateIf`, as MONITOR_ALERT_LIFECYCLE_CHANGED's `detector`
 * since issue 17) is judged by class-validator alone.
 */
const SAMPLES = new Map<PayloadClass, Record<string, unknown>>([
  [AuditableEventData, COMMON],
  [
    PolicyLifecycleData,
    {
      ...COMMON,
      change: 'BINDING_UPGRADED',
      groupId: UUID,
      groupName: 'pii',
      versionId: UUID,
      version: '3',
      bindingId: UUID,
      previousVersion: '2',
    },
  ],
  [
    AgentLifecycleData,
    {
      ...COMMON,
      agentId: UUID,
      name: 'billing agent',
      change: 'CREATED',
      status: 'ACTIVE',
      permissions: ['AUDIT:READ'],
    },
  ],
  [
    CredentialRotationData,
    { ...COMMON, credential: 'AGENT_CLIENT_SECRET', subjectId: UUID, subjectName: 'billing agent' },
  ],
  [TenantLifecycleData, { ...COMMON, tenantId: UUID, slug: 'acme', change: 'SUSPENDED' }],
  [
    SubscriptionChangedData,
    {
      ...COMMON,
      change: 'UPDATED',
      subscriptionId: UUID,
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: UUID,
      targetId: UUID,
      tools: ['lookup_customer'],
    },
  ],
  [
    McpGrantsChangedData,
    {
      ...COMMON,
      subscriptionId: UUID,
      agentId: UUID,
      mcpServerId: UUID,
      tools: ['echo'],
      previousTools: null,
    },
  ],
  [
    AdminChangeData,
    {
      ...COMMON,
      change: 'UPDATED',
      target: { kind: 'ROLE', id: UUID, name: 'auditors' },
      fields: ['permissions', 'clientSecret'],
      changes: {
        permissions: { before: ['AUDIT:READ'], after: ['AUDIT:READ', 'AUDIT:WRITE'] },
        clientSecret: { before: '[redacted]', after: '[redacted]' },
      },
    },
  ],
  [
    MonitorConfigChangedData,
    {
      ...COMMON,
      changedDetectors: ['AGENT_VOLUME_ANOMALY'],
      settings: { AGENT_VOLUME_ANOMALY: { enabled: false } },
    },
  ],
]);

/** Values a mutation may put anywhere: edge cases of every translated constraint. */
const VALUES: unknown[] = [
  null,
  undefined,
  '',
  'x',
  'x'.repeat(64),
  'x'.repeat(201),
  'x'.repeat(2_001),
  '\u{1F600}\uFE0F'.repeat(60),
  'line\nbreak',
  'MCP',
  'mcp',
  'AGENT_VOLUME_ANOMALY',
  UUID,
  UUID.toUpperCase(),
  `urn:uuid:${UUID}`,
  '7d3c4a4e-2f0b-0c8e-9a51-0b6f2d1e9c77',
  '00000000-0000-0000-0000-000000000000',
  '0af7651916cd43dd8448eb211c80319c',
  '0AF7651916CD43DD8448EB211C80319C',
  '0af7651916cd43dd8448eb211c80319c\n',
  'a'.repeat(64),
  0,
  1.5,
  -1,
  true,
  [],
  [UUID],
  ['x', 1],
  [{ kind: 'REGEX' }],
  {},
  { type: 'AGENT' },
  { type: 'AGENT', id: UUID },
  { path: '$.a' },
];

/** A seeded generator, so that a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') {
    return [];
  }
  const keys: Array<string | number> = Array.isArray(value)
    ? value.map((_, i) => i)
    : Object.keys(value);
  return keys.flatMap((key) => [
    [...prefix, key],
    ...paths((value as Record<string, unknown>)[key], [...prefix, key]),
  ]);
}

function mutated(sample: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const copy = structuredClone(sample);
  const count = 1 + Math.floor(next() * 3);
  for (let i = 0; i < count; i += 1) {
    const all = paths(copy);
    const path = all[Math.floor(next() * all.length)] ?? ['summary'];
    const parent = path
      .slice(0, -1)
      .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
    const key = path[path.length - 1] as string;
    if (next() < 0.15) {
      delete parent[key];
    } else {
      parent[key] = structuredClone(VALUES[Math.floor(next() * VALUES.length)]);
    }
  }
  return copy;
}

function classValidatorAccepts(payloadClass: PayloadClass, data: object): boolean {
  return (
    validateSync(plainToInstance(payloadClass, data), { forbidUnknownValues: false }).length === 0
  );
}

describe('compiled payload validation', () => {
  it('compiles a validator for exactly the classes sampled here, among them every traffic event', () => {
    const classes = new Set(EVENT_TYPES.map((type) => payloadClassOf(type)));
    const compiled = [...classes].filter(
      (payloadClass) => compiledValidatorOf(payloadClass) !== undefined,
    );
    expect(compiled.map((c) => c.name).sort()).toEqual(
      [...SAMPLES.keys()].map((c) => c.name).sort(),
    );
    expect(payloadClassOf('COMMUNICATION_AUDIT')).toBe(AuditableEventData);
  });

  it.each(
    [...SAMPLES].map(
      ([payloadClass, sample]) => [payloadClass.name, payloadClass, sample] as const,
    ),
  )(
    '%s: never accepts what class-validator refuses (2,000 mutations)',
    (_name, payloadClass, sample) => {
      const validate = compiledValidatorOf(payloadClass);
      expect(validate?.(sample)).toBe(true);
      expect(classValidatorAccepts(payloadClass, sample)).toBe(true);
      const next = random(payloadClass.name.length * 7_919);
      const verdicts = { bothAccept: 0, bothRefuse: 0, onlyClassValidatorAccepts: 0 };
      for (let i = 0; i < 2_000; i += 1) {
        const data = mutated(sample, next);
        const compiledAccepts = validate?.(data) === true;
        const accepted = classValidatorAccepts(payloadClass, data);
        if (compiledAccepts && !accepted) {
          throw new Error(
            `compiled validator accepted what class-validator refuses: ${JSON.stringify(data)}`,
          );
        }
        verdicts[
          compiledAccepts ? 'bothAccept' : accepted ? 'onlyClassValidatorAccepts' : 'bothRefuse'
        ] += 1;
      }
      // Both outcomes occur, and the fast path decides most accepted payloads itself. What only
      // class-validator accepts are its lenient corners (an array where an object is declared,
      // null items under `each`), which the compiled schema refuses and class-validator then rules on.
      expect(verdicts.bothAccept).toBeGreaterThan(200);
      expect(verdicts.bothRefuse).toBeGreaterThan(200);
      expect(verdicts.onlyClassValidatorAccepts).toBeLessThan(verdicts.bothAccept / 4);
    },
  );

  it.each([
    ['a URN-form uuid', { policyIds: [`urn:uuid:${UUID}`] }, ['policyIds']],
    [
      'a uuid with version 0',
      { policyIds: ['7d3c4a4e-2f0b-0c8e-9a51-0b6f2d1e9c77'] },
      ['policyIds'],
    ],
    ['an upper-case trace id', { traceId: '0AF7651916CD43DD8448EB211C80319C' }, ['traceId']],
    ['a summary over 2,000 characters', { summary: 'x'.repeat(2_001) }, ['summary']],
    ['an unknown action', { action: 'ALLOW' }, ['action']],
    ['a party without type', { actor: { id: 'a' } }, ['actor']],
    ['details as an array', { details: [] }, ['details']],
  ])('refuses %s, naming the property as class-validator does', (_name, data, properties) => {
    expect(invalidPayloadProperties('COMMUNICATION_AUDIT', data)).toEqual(properties);
  });

  it('accepts null and absent optional members, as @IsOptional does', () => {
    const data = { actor: null, decision: null, policyIds: null, summary: undefined };
    expect(compiledValidatorOf(AuditableEventData)?.(data)).toBe(true);
    expect(invalidPayloadProperties('COMMUNICATION_AUDIT', data)).toEqual([]);
  });

  it('validates classes without a compiled validator with class-validator alone', () => {
    expect(invalidPayloadProperties('MONITOR_ALERT_TRIGGERED', { alertId: 'nope' })).toEqual(
      expect.arrayContaining(['alertId', 'findingId', 'detector', 'evidence']),
    );
  });
});
