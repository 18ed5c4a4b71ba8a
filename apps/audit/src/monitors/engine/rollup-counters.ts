import { Action, AuditableEventData, EventParty, SubjectType } from '@agp/contracts';

/** Audit event types that carry traffic (docs/decisions/monitors.md M4). */
export const TRAFFIC_EVENT_TYPES = [
  'COMMUNICATION_AUDIT',
  'LLM_GATEWAY_CALL',
  'LLM_GATEWAY_FAILOVER',
] as const;
export type TrafficEventType = (typeof TRAFFIC_EVENT_TYPES)[number];

export const ROLLUP_METRICS = [
  'REQUESTS',
  'INVOCATIONS',
  'BLOCKS',
  'WARNS',
  'MASKS',
  'HITL_HOLDS',
  'ERRORS',
  'LLM_CALLS',
  'LLM_FAILOVERS',
  'TOOL_CALLS',
  'UNATTRIBUTED_ERRORS',
  'UNATTRIBUTED_WARNS',
  'UNATTRIBUTED_HITL_HOLDS',
] as const;
export type RollupMetric = (typeof ROLLUP_METRICS)[number];

export interface RollupCount {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  minute: Date;
  count: number;
}

export const SIGHTING_OBSERVATIONS = ['ACTIVITY', 'TOOL_CALL'] as const;
export type SightingObservation = (typeof SIGHTING_OBSERVATIONS)[number];

/** A subject (or one of its tools) seen at a time: feeds novelty and dormancy (M5). */
export interface Sighting {
  observation: SightingObservation;
  subjectType: SubjectType;
  subjectId: string;
  key: string;
  at: Date;
  /** How many events this sighting stands for (the simulator folds a minute's events; default 1). */
  count?: number;
}

export interface TrafficEvent {
  type: TrafficEventType;
  tenantId: string;
  occurredAt: string;
  data: AuditableEventData;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PARTY_TYPES: readonly SubjectType[] = [
  'AGENT',
  'USER',
  'CHANNEL',
  'MCP_SERVER',
  'LLM_GATEWAY',
];
const DETAIL_PARTIES: ReadonlyArray<[string, SubjectType]> = [
  ['mcpServerId', 'MCP_SERVER'],
  ['llmGatewayId', 'LLM_GATEWAY'],
  ['channelId', 'CHANNEL'],
];

const ACTION_METRICS: Partial<Record<Action, RollupMetric>> = {
  BLOCK: 'BLOCKS',
  WARN: 'WARNS',
  MASK: 'MASKS',
  HUMAN_REVIEW_REQUIRED: 'HITL_HOLDS',
};

function detail(data: AuditableEventData, name: string): unknown {
  return data.details?.[name];
}

function uuidDetail(data: AuditableEventData, name: string): string | undefined {
  const value = detail(data, name);
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
}

/** The distinct subjects an event is about: actor, source, sink and the ids named in details. */
function partiesOf(data: AuditableEventData): Array<{ type: SubjectType; id: string }> {
  const found = new Map<string, { type: SubjectType; id: string }>();
  const add = (type: SubjectType, id: string): void => {
    found.set(`${type}:${id}`, { type, id });
  };
  for (const party of [data.actor, data.source, data.sink] as Array<EventParty | undefined>) {
    const type = party?.type as SubjectType | undefined;
    if (type && PARTY_TYPES.includes(type) && party?.id && UUID.test(party.id)) {
      add(type, party.id.toLowerCase());
    }
  }
  for (const [name, type] of DETAIL_PARTIES) {
    const id = uuidDetail(data, name);
    if (id) {
      add(type, id);
    }
  }
  return [...found.values()];
}

function minuteOf(occurredAt: string): Date {
  const at = new Date(occurredAt);
  at.setUTCSeconds(0, 0);
  return at;
}

/** M4: which counters and sightings one traffic event feeds. */
export function countersOf(event: TrafficEvent): { counts: RollupCount[]; sightings: Sighting[] } {
  const { data, tenantId } = event;
  const minute = minuteOf(event.occurredAt);
  const at = new Date(event.occurredAt);
  const counts: RollupCount[] = [];
  const sightings: Sighting[] = [];
  const count = (subjectType: SubjectType, subjectId: string, metric: RollupMetric): void => {
    counts.push({ subjectType, subjectId, metric, minute, count: 1 });
  };
  const parties = partiesOf(data);
  const provider = uuidDetail(data, 'llmProviderId');
  const isError = data.action === 'ERROR' || detail(data, 'outcome') === 'ERROR';
  sightings.push({
    observation: 'ACTIVITY',
    subjectType: 'TENANT',
    subjectId: tenantId,
    key: '',
    at,
  });

  if (event.type === 'LLM_GATEWAY_FAILOVER') {
    count('TENANT', tenantId, 'LLM_FAILOVERS');
    for (const party of parties.filter((p) => p.type === 'LLM_GATEWAY')) {
      count('LLM_GATEWAY', party.id, 'LLM_FAILOVERS');
    }
    // The provider skipped (`details.llmProviderId`) was called and failed: its error rate sees
    // the attempt, while the gateway's and the tenant's LLM_CALLS stay one per call (M4).
    if (provider) {
      count('LLM_PROVIDER', provider, 'LLM_CALLS');
      count('LLM_PROVIDER', provider, 'ERRORS');
    }
    return { counts, sightings };
  }

  if (event.type === 'LLM_GATEWAY_CALL') {
    // The message itself is counted by its COMMUNICATION_AUDIT; this event adds the call outcome.
    count('TENANT', tenantId, 'LLM_CALLS');
    const targets = parties.filter((p) => p.type === 'LLM_GATEWAY');
    if (provider) {
      targets.push({ type: 'LLM_PROVIDER', id: provider });
      sightings.push({
        observation: 'ACTIVITY',
        subjectType: 'LLM_PROVIDER',
        subjectId: provider,
        key: '',
        at,
      });
    }
    for (const target of targets) {
      count(target.type, target.id, 'LLM_CALLS');
      if (isError) {
        count(target.type, target.id, 'ERRORS');
      }
    }
    return { counts, sightings };
  }

  const isResponse = detail(data, 'direction') === 'RESPONSE';
  const actionMetric = data.action ? ACTION_METRICS[data.action] : undefined;
  const policyIds = [...new Set((data.policyIds ?? []).map((id) => id.toLowerCase()))];
  const toolName = detail(data, 'toolName');
  const isToolCall = typeof toolName === 'string' && toolName.length > 0 && !isResponse;

  if (!isResponse) {
    count('TENANT', tenantId, 'REQUESTS');
  }
  if (actionMetric) {
    count('TENANT', tenantId, actionMetric);
  }
  if (isError) {
    count('TENANT', tenantId, 'ERRORS');
  }
  if (isToolCall) {
    count('TENANT', tenantId, 'TOOL_CALLS');
  }
  const attributedError = data.action === 'ERROR' && policyIds.length > 0;
  if (isError && !attributedError) {
    count('TENANT', tenantId, 'UNATTRIBUTED_ERRORS');
  }
  if (policyIds.length === 0 && (actionMetric === 'WARNS' || actionMetric === 'HITL_HOLDS')) {
    count(
      'TENANT',
      tenantId,
      actionMetric === 'WARNS' ? 'UNATTRIBUTED_WARNS' : 'UNATTRIBUTED_HITL_HOLDS',
    );
  }
  for (const policyId of policyIds) {
    count('POLICY', policyId, 'INVOCATIONS');
    if (actionMetric) {
      count('POLICY', policyId, actionMetric);
    }
    if (data.action === 'ERROR') {
      count('POLICY', policyId, 'ERRORS');
    }
    sightings.push({
      observation: 'ACTIVITY',
      subjectType: 'POLICY',
      subjectId: policyId,
      key: '',
      at,
    });
  }
  for (const party of parties) {
    if (!isResponse) {
      count(party.type, party.id, 'REQUESTS');
    }
    if (party.type === 'MCP_SERVER') {
      if (isError) {
        count('MCP_SERVER', party.id, 'ERRORS');
      }
      if (isToolCall) {
        count('MCP_SERVER', party.id, 'TOOL_CALLS');
        sightings.push({
          observation: 'TOOL_CALL',
          subjectType: 'MCP_SERVER',
          subjectId: party.id,
          key: toolName,
          at,
        });
      }
    }
    sightings.push({
      observation: 'ACTIVITY',
      subjectType: party.type,
      subjectId: party.id,
      key: '',
      at,
    });
  }
  return { counts, sightings };
}
