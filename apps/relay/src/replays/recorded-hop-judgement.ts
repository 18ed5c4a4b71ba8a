import { DIRECTIONS, MessageDirection, RecordedHop } from '@agp/contracts';

import { bindingApplies } from '../decisions/binding-matcher';
import { DecisionSide, candidateOutcome, sideOf } from '../decisions/candidate-placement';
import { BindingResult, DecisionInput, EndpointRef } from '../decisions/decision.types';
import { StoredDiff } from '../shadow/decision-diffs.repository';
import { diffHopOf } from '../shadow/shadow-decisions.listener';
import { recordedText } from '../traffic/recorded-hop-text';
import { PLATFORM_PARTY } from '../traffic/pipeline/platform-hop-event';
import { ReplayFilters, ReplayPlacement } from './replay.types';

/** What a replay makes of one recorded hop (governance.md G10). */
export type RecordedHopFate =
  { kind: 'SKIPPED' } | { kind: 'UNREPLAYABLE' } | { kind: 'JUDGEABLE'; input: DecisionInput };

export function matchesFilters(hop: RecordedHop, filters: ReplayFilters): boolean {
  if (filters.protocols && !filters.protocols.includes(hop.protocol)) {
    return false;
  }
  if (filters.toolNames && !(hop.toolName && filters.toolNames.includes(hop.toolName))) {
    return false;
  }
  if (filters.endpointIds) {
    const ids = [hop.source.id, hop.sink.id];
    return filters.endpointIds.some((id) => ids.includes(id));
  }
  return true;
}

function isPlatformHop(hop: RecordedHop): boolean {
  return hop.source.type === PLATFORM_PARTY.type || hop.sink.type === PLATFORM_PARTY.type;
}

function endpointOf(party: RecordedHop['source']): EndpointRef {
  return {
    type: party.type as EndpointRef['type'],
    id: party.id ?? '',
    ...(party.label ? { name: party.label } : {}),
  };
}

/** D40, D55: a hop with only a digest or foreign content is unreplayable; never guessed. */
export function fateOf(
  hop: RecordedHop,
  filters: ReplayFilters,
  placement: ReplayPlacement,
  tenant: { id: string; slug?: string },
): RecordedHopFate {
  if (isPlatformHop(hop)) {
    // traffic.md T103: the platform's own probes were never judged by a policy; none re-judges them.
    return { kind: 'SKIPPED' };
  }
  const source = endpointOf(hop.source);
  const sink = endpointOf(hop.sink);
  const at = Date.parse(hop.occurredAt);
  if (
    !matchesFilters(hop, filters) ||
    !bindingApplies({ ...placement, validFrom: 0 }, source, sink, at)
  ) {
    return { kind: 'SKIPPED' };
  }
  if (hop.content === undefined) {
    return { kind: 'UNREPLAYABLE' };
  }
  let json: unknown;
  try {
    json = JSON.parse(hop.content);
  } catch {
    return { kind: 'UNREPLAYABLE' };
  }
  const direction: MessageDirection = (DIRECTIONS as readonly string[]).includes(
    hop.direction ?? '',
  )
    ? (hop.direction as MessageDirection)
    : 'REQUEST';
  return {
    kind: 'JUDGEABLE',
    input: {
      tenant,
      protocol: hop.protocol,
      direction,
      source,
      sink,
      ...(hop.method ? { method: hop.method } : {}),
      ...(hop.toolName ? { tool: { name: hop.toolName } } : {}),
      message: { json, text: recordedText(hop.protocol, direction, json) },
      time: hop.occurredAt,
    },
  };
}

/** The enforced bindings' results as the hop's audit event recorded them (actions only). */
function recordedResults(hop: RecordedHop): BindingResult[] {
  return hop.verdicts.map((v) => ({
    bindingId: v.bindingId,
    bindingLevel: 'TENANT',
    priority: 0,
    groupId: v.groupId,
    groupName: '',
    groupVersion: '',
    action: v.action,
    reasons: [],
    mask: [],
    detections: [],
  }));
}

export function judgeRecorded(
  hop: RecordedHop,
  candidate: BindingResult,
  placement: ReplayPlacement,
  failOpen: boolean,
): StoredDiff {
  const enforced: DecisionSide = {
    action: hop.action,
    policyIds: [...new Set(hop.verdicts.map((v) => v.groupId))],
    reasons: hop.reasons,
  };
  const outcome = candidateOutcome(recordedResults(hop), placement.replaces, candidate, failOpen);
  return {
    hopId: hop.id,
    hopAt: hop.occurredAt,
    hop: diffHopOf({
      protocol: hop.protocol,
      source: hop.source,
      sink: hop.sink,
      details: {
        direction: hop.direction,
        method: hop.method,
        toolName: hop.toolName,
      },
    }),
    enforced,
    shadow: sideOf(outcome),
  };
}
