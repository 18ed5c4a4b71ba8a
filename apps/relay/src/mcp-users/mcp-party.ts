import { Audiences, bearerChallenge, mcpResourceOf } from '@agp/auth';
import { HttpProblem, correlationIdOf } from '@agp/http';

import { McpCaller } from '../traffic/mcp/mcp-relay.service';
import { TrafficRequest, agentCallerOf } from '../traffic/pipeline/traffic-intake';

/**
 * D43, R28, I22: an agent's token (T38), or a person's taken only on the one server its `aud`
 * names, else a 401 whose challenge sends the client to get one.
 */
export function mcpCallerOf(request: TrafficRequest, audiences: Audiences): McpCaller {
  const principal = request.principal;
  if (principal?.kind !== 'USER') {
    return agentCallerOf(request, 'an MCP server');
  }
  const resource = mcpResourceOf(audiences, request.url);
  if (!resource || !principal.audiences?.includes(resource)) {
    throw HttpProblem.unauthorized(
      'this token was not issued for this MCP server',
      bearerChallenge(audiences, request.url, true),
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
