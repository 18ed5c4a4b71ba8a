import { AuditableEventData, EventParty } from '@agp/contracts';

import { EndpointRef } from '../decisions/decision.types';
import { StoredHitlRequest } from './hitl.repository';

function party(endpoint: EndpointRef): EventParty {
  return {
    type: endpoint.type,
    id: endpoint.id,
    ...(endpoint.name ? { label: endpoint.name } : {}),
  };
}

function what(request: StoredHitlRequest): string {
  const tool = request.tool ? ` ${request.tool}` : '';
  return `${request.protocol} ${request.method ?? 'message'}${tool}`;
}

/** The common fields of every HITL audit event of one request (D34). */
export function hitlEventData(
  request: StoredHitlRequest,
  summary: string,
  extra: Record<string, unknown> = {},
  actor?: EventParty,
): AuditableEventData {
  const agent = request.direction === 'REQUEST' ? request.source : request.sink;
  return {
    actor: actor ?? party(agent),
    source: party(request.source),
    sink: party(request.sink),
    protocol: request.protocol,
    action: 'HUMAN_REVIEW_REQUIRED',
    policyIds: request.policyIds,
    summary: `${what(request)}: ${summary}`,
    details: {
      hitlRequestId: request.id,
      status: request.status,
      direction: request.direction,
      ...(request.method ? { method: request.method } : {}),
      ...(request.tool ? { toolName: request.tool } : {}),
      decisionId: request.decisionId,
      expiresAt: request.expiresAt,
      ...extra,
    },
    decision: { reasons: request.reasons },
  };
}
