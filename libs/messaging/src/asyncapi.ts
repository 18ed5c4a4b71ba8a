import {
  BEYOND_SPECIFICATION,
  EVENT_TYPES,
  EVENT_VERSION,
  EVIDENCE_CLASSES,
  EventType,
  payloadClassOf,
} from '@agp/contracts';

import { JsonSchema, contractJsonSchemas } from './contract-schemas';
import { EVENTS_MAX_AGE_MS } from './streams';
import { deadLetterSubject, eventSubject, eventsStreamName } from './subjects';

const SCHEMA_REF = '#/components/schemas/';
const PREFIX_PARAMETER = '{prefix}';

/** AsyncAPI 3 (issue 18 § 4) from the contract classes consumers validate with: it cannot drift. */
export function asyncApiDocument(options: { version?: string } = {}): Record<string, unknown> {
  const schemas = contractSchemas();
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    const payloadName = payloadClassOf(type).name;
    schemas[`${type}Envelope`] = envelopeSchema(type, `${SCHEMA_REF}${payloadName}`);
    // D42: a type the specification does not list says so on its channel and its message.
    const beyond = BEYOND_SPECIFICATION[type]
      ? { description: BEYOND_SPECIFICATION[type], 'x-beyond-specification': true }
      : {};
    messages[type] = {
      name: type,
      title: type,
      ...beyond,
      contentType: 'application/json',
      headers: { $ref: '#/components/schemas/NatsHeaders' },
      payload: { $ref: `${SCHEMA_REF}${type}Envelope` },
    };
    channels[type] = {
      address: eventSubject(PREFIX_PARAMETER, type),
      ...beyond,
      parameters: { prefix: { $ref: '#/components/parameters/prefix' } },
      messages: { [type]: { $ref: `#/components/messages/${type}` } },
    };
    operations[`receive${pascal(type)}`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${type}` },
      messages: [{ $ref: `#/channels/${type}/messages/${type}` }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Agent Governance Platform events',
      version: options.version ?? String(EVENT_VERSION),
      description: DELIVERY_SEMANTICS,
    },
    defaultContentType: 'application/json',
    servers: {
      nats: {
        host: 'nats:4222',
        protocol: 'nats',
        description: 'The platform NATS server (NATS_URL of the services), JetStream enabled.',
      },
    },
    channels,
    operations,
    components: {
      schemas: { ...schemas, NatsHeaders: NATS_HEADERS },
      messages,
      parameters: {
        prefix: {
          default: 'agp',
          description: 'NATS_PREFIX of the installation; the stream is `<PREFIX>_EVENTS`.',
        },
      },
    },
  };
}

const DELIVERY_SEMANTICS = [
  `Every event travels on the JetStream stream \`${eventsStreamName('<prefix>')}\` (subjects`,
  `\`${eventSubject('<prefix>', '>')}\`, file storage, kept ${EVENTS_MAX_AGE_MS / 86_400_000} days).`,
  'Subscribe with a durable consumer of your own (explicit acknowledgement) so nothing is missed',
  'while your subscriber is down. Delivery is at least once: the platform publishes through an',
  'outbox and may publish an event again after a failure, and JetStream redelivers what you do not',
  'acknowledge in time. Deduplicate on the envelope `id` (also the `Nats-Msg-Id` header). `version`',
  'is the contract version of the type; a breaking change is a new version. Messages a platform',
  `consumer could not process are parked on \`${deadLetterSubject('<prefix>', '<consumer>')}\`.`,
].join(' ');

const NATS_HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    'Nats-Msg-Id': {
      type: 'string',
      format: 'uuid',
      description: 'The envelope id; JetStream drops a repeat within its duplicate window.',
    },
  },
};

function envelopeSchema(type: EventType, payloadRef: string): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'type', 'version', 'occurredAt', 'tenantId', 'correlationId', 'data'],
    properties: {
      id: { type: 'string', format: 'uuid', description: 'Idempotency key: deduplicate on it.' },
      type: { type: 'string', const: type },
      version: { type: 'integer', minimum: 1 },
      occurredAt: { type: 'string', format: 'date-time' },
      tenantId: { type: 'string', format: 'uuid' },
      correlationId: { type: 'string', minLength: 1 },
      data: { $ref: payloadRef },
    },
  };
}

// JSON Schemas of the event payload classes and what they reference (service DTOs share the global
// class-validator registry and are left out), with the evidence union spelled out by its `kind`
// (class-validator-jsonschema does not follow a discriminated `@Type`).
function contractSchemas(): Record<string, JsonSchema> {
  const all = contractJsonSchemas(SCHEMA_REF);
  const evidence = {
    oneOf: Object.values(EVIDENCE_CLASSES).map((evidenceClass) => ({
      $ref: `${SCHEMA_REF}${evidenceClass.name}`,
    })),
    discriminator: 'kind',
  };
  for (const schema of Object.values(all)) {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    if (properties?.evidence) {
      properties.evidence = evidence;
    }
  }
  return reachableFrom(
    EVENT_TYPES.map((type) => payloadClassOf(type).name),
    all,
  );
}

function reachableFrom(
  roots: readonly string[],
  all: Record<string, JsonSchema>,
): Record<string, JsonSchema> {
  const kept: Record<string, JsonSchema> = {};
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (kept[name] || !all[name]) {
      continue;
    }
    kept[name] = all[name];
    for (const [, referenced] of JSON.stringify(all[name]).matchAll(REF_PATTERN)) {
      pending.push(referenced);
    }
  }
  return kept;
}

const REF_PATTERN = /"#\/components\/schemas\/(\w+)"/g;

function pascal(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
