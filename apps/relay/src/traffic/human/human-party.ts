import { HttpProblem, correlationIdOf } from '@agp/http';

import { A2aCaller } from '../a2a/a2a-relay.service';
import { TrafficRequest } from '../pipeline/traffic-intake';

/** D43, D56, T60: the console's own token only; agents have `/relay/a2a/{agentId}`. */
export function humanCallerOf(request: TrafficRequest): A2aCaller {
  const principal = request.principal;
  if (principal?.kind !== 'USER') {
    throw new HttpProblem(
      403,
      'forbidden',
      "only a person's token may call /relay/human; agents call /relay/a2a",
    );
  }
  return {
    tenantId: principal.tenantId,
    agentId: principal.subject,
    correlationId: correlationIdOf(request.raw),
    headers: request.headers,
    user: { id: principal.subject, name: principal.label },
  };
}
