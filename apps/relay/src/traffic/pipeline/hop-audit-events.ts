import { createHash } from 'node:crypto';

import { AuditEventType, AuditableEventData, EventEnvelope, EventParty } from '@agp/contracts';
import { buildEvent } from '@agp/messaging';

import { Detection, EndpointRef, HopDecision } from '../../decisions/decision.types';
import { conversationKeysOf } from './conversation-keys';
import { ValidationInput } from '../../validation/validation.types';
import { Hop, Refusal } from './hop.types';

type HopEvent = EventEnvelope<AuditEventType, AuditableEventData>;

/** The audit trail refuses content over 1 MiB (AuditableEventData); such a hop keeps its digest. */
const MAX_CONTENT_CHARS = 1_048_576;

const DETECTION_EVENT: ReadonlyArray<[RegExp, AuditEventType]> = [
  [/INJECTION/, 'PROMPT_INJECTION_DETECTION'],
  [/SECRET|CREDENTIAL|KEY|TOKEN/, 'SECRET_DETECTION'],
  [/PII|PERSONAL|EMAIL|SSN|PHONE/, 'PII_DETECTION'],
];

/** D25: the detection event type of a policy's `kind` (anything else is a regex finding). */
export function detectionEventType(kind: string): AuditEventType {
  const upper = kind.toUpperCase();
  return DETECTION_EVENT.find(([pattern]) => pattern.test(upper))?.[1] ?? 'REGEX_DETECTION';
}

function party(endpoint: EndpointRef): EventParty {
  return {
    type: endpoint.type,
    id: endpoint.id,
    ...(endpoint.name ? { label: endpoint.name } : {}),
  };
}

export function digestOf(json: unknown): string {
  return createHash('sha256').update(JSON.stringify(json)).digest('hex');
}

export function common(hop: Hop): AuditableEventData {
  const ids = hop.traceIds ?? hop.trace?.ids;
  return {
    actor: party(hop.agent),
    source: party(hop.source),
    sink: party(hop.sink),
    protocol: hop.protocol,
    contentDigest: digestOf(hop.message.json),
    ...(ids ? { traceId: ids.traceId, spanId: ids.spanId } : {}),
  };
}

export function what(hop: Hop): string {
  const tool = hop.tool ? ` ${hop.tool}` : '';
  const from = hop.source.name ?? hop.source.type;
  const to = hop.sink.name ?? hop.sink.type;
  return `${hop.protocol} ${hop.method ?? 'message'}${tool} ${from} → ${to}`;
}

/**
 * `direction` and `toolName` are what the monitors' rollups count by (monitors.md M4);
 * `conversationKeys` what the audit trail groups a conversation by (D44, conversations.md CV2).
 */
export function hopDetails(hop: Hop): Record<string, unknown> {
  return {
    direction: hop.direction,
    ...(hop.method ? { method: hop.method } : {}),
    ...(hop.tool ? { toolName: hop.tool } : {}),
    ...hop.details,
    conversationKeys: conversationKeysOf(hop),
  };
}

function content(hop: Hop, masked: unknown): { content?: string } {
  if (!hop.captureContent) {
    return {};
  }
  const text = JSON.stringify(masked);
  return text.length <= MAX_CONTENT_CHARS ? { content: text } : {};
}

/** COMMUNICATION_AUDIT for a decided hop, and one detection event per kind it found (D25, D40). */
export function decidedHopEvents(hop: Hop, decision: HopDecision, latencyMs: number): HopEvent[] {
  const context = { tenantId: hop.tenantId, correlationId: hop.correlationId };
  const policyIds = [...new Set(decision.bindings.map((b) => b.groupId))];
  const verdicts = decision.bindings.map((b) => ({
    bindingId: b.bindingId,
    groupId: b.groupId,
    groupName: b.groupName,
    version: b.groupVersion,
    action: b.action,
    ...(b.error ? { error: b.error } : {}),
  }));
  const detail = {
    reasons: decision.reasons,
    detections: decision.detections,
    masks: decision.mask,
  };
  const communication: AuditableEventData = {
    ...common(hop),
    action: decision.action,
    policyIds,
    summary: `${what(hop)}: ${decision.action}`,
    details: {
      ...hopDetails(hop),
      verdicts,
      maskedFields: decision.maskedFields,
      latencyMs: Math.round(latencyMs * 1000) / 1000,
      ...(decision.action === 'ERROR' ? { failOpen: decision.failOpen } : {}),
      // GR31: what was checked and how it came out is the hop's own record, valid or not.
      ...(hop.validation ? { validation: hop.validation } : {}),
    },
    decision: detail,
    ...content(hop, decision.maskedMessage.json),
  };
  const events: HopEvent[] = [buildEvent('COMMUNICATION_AUDIT', context, communication)];
  for (const [type, found] of groupDetections(decision.detections)) {
    events.push(
      buildEvent(type, context, {
        ...common(hop),
        action: decision.action,
        policyIds,
        summary: `${what(hop)}: ${found.map((d) => d.label).join(', ')} detected`,
        details: hopDetails(hop),
        decision: { ...detail, detections: found },
      }),
    );
  }
  if (hop.validation && !hop.validation.valid) {
    events.push(validationEvent(hop, hop.validation, events[0].id));
  }
  return events;
}

/**
 * GR24, GR31: a hop whose value failed its schema or whose schema could not be read (keywords,
 * never the values). No `action`: the check decided nothing; the hop's decision is the
 * COMMUNICATION_AUDIT event it names, which carries the same `validation`.
 */
function validationEvent(hop: Hop, validation: ValidationInput, hopEventId: string): HopEvent {
  const failed = [...new Set(validation.results.filter((r) => !r.valid).map((r) => r.target))];
  return buildEvent(
    'VALIDATION_RESULT',
    { tenantId: hop.tenantId, correlationId: hop.correlationId },
    {
      ...common(hop),
      summary: `${what(hop)}: ${failed.length === 0 ? 'valid' : `invalid ${failed.join(', ')}`}`,
      // Not `toolName`: a tool's hops are counted by that key (M4), this is not one more hop.
      details: {
        direction: hop.direction,
        ...(hop.method ? { method: hop.method } : {}),
        hopEventId,
        validation,
      },
    },
  );
}

/** The one event of a hop refused before policy (kill switch, grant, rate limit, upstream fault). */
export function refusedHopEvent(hop: Hop, refusal: Refusal): HopEvent {
  return buildEvent(
    refusal.type,
    { tenantId: hop.tenantId, correlationId: hop.correlationId },
    {
      ...common(hop),
      action: refusal.action,
      summary: `${what(hop)}: ${refusal.action} (${refusal.reason})`,
      details: { ...hopDetails(hop), ...refusal.details },
      decision: { reasons: [refusal.reason] },
      ...content(hop, hop.message.json),
    },
  );
}

function groupDetections(detections: Detection[]): Map<AuditEventType, Detection[]> {
  const groups = new Map<AuditEventType, Detection[]>();
  for (const detection of detections) {
    const type = detectionEventType(detection.kind);
    groups.set(type, [...(groups.get(type) ?? []), detection]);
  }
  return groups;
}
