import { Audiences, bearerChallenge, mcpResourceOf } from '@agp/auth';
import { HttpProblem, correlationIdOf } from '@agp/http';

import { McpCaller } from '../traffic/mcp/mcp-relay.service';
import { TrafficRequest, agentCallerOf } from '../traffic/pipeline/traffic-intake';

/**
 * D43, relay.md R28: who calls an MCP server's path. An agent's token as before (T38); or a
 * person's token from the MCP authorization flow, taken only on the path of the one server it was
 * issued for (its `aud` names `{base_url}/relay/mcp/{serverId}`, identity.md I22), else a 401
 * whose challenge sends the client to get one. The person is then the hop's party.
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
