import { A2aDirectory, A2aRoute } from '../a2a/a2a-directory';
import { AgentCardJson } from '../a2a/agent-card';
import { McpRoute, McpServerRoute, TrafficDirectory } from './traffic-directory';
import { SandboxDouble } from './traffic-intake';

/** G19: the double answered for a LIVE evaluation does not exist (any more) in the tenant. */
export class MissingDouble extends Error {}

/**
 * G19: the target keeps its identity (bindings, subscriptions, kill switches, the audit trail
 * name it); only where its bytes go changes. A URL double never gets the target's credential.
 */
export async function mcpRouteWithDouble(
  directory: TrafficDirectory,
  tenantId: string,
  agentId: string,
  route: McpRoute,
  double: SandboxDouble,
): Promise<McpRoute> {
  const { credentialSealed: _sealed, credentialHeader: _header, ...server } = route.server;
  if ('url' in double) {
    const transport = server.transport === 'VIRTUAL' ? 'STREAMABLE_HTTP' : server.transport;
    return { ...route, server: { ...server, url: double.url, transport } };
  }
  const other = await directory.mcpRoute(tenantId, agentId, double.targetId);
  if (!other || other.server.transport === 'VIRTUAL') {
    throw new MissingDouble(`sandbox double ${double.targetId} is not an MCP server of the tenant`);
  }
  const reached: McpServerRoute = {
    ...server,
    url: other.server.url,
    transport: other.server.transport,
    timeoutMs: other.server.timeoutMs,
    ...(other.server.credentialSealed ? { credentialSealed: other.server.credentialSealed } : {}),
    ...(other.server.credentialHeader ? { credentialHeader: other.server.credentialHeader } : {}),
  };
  return { ...route, server: reached };
}

/** G19: an A2A target's double: a JSON-RPC endpoint URL, or a registered agent's card. */
export async function a2aRouteWithDouble(
  routes: A2aDirectory,
  tenantId: string,
  callerId: string,
  route: A2aRoute,
  double: SandboxDouble,
  cardOf: (target: A2aRoute['target']) => Promise<AgentCardJson>,
): Promise<A2aRoute> {
  const { credentialSealed: _sealed, credentialHeader: _header, ...target } = route.target;
  if ('url' in double) {
    const card: AgentCardJson = {
      ...(route.target.card ?? { name: route.target.name }),
      supportedInterfaces: [
        { url: double.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    };
    return { ...route, target: { ...target, card } };
  }
  const other = await routes.route(tenantId, callerId, double.targetId);
  if (!other) {
    throw new MissingDouble(`sandbox double ${double.targetId} is not an agent of the tenant`);
  }
  // The double's own card (fetched once as any target's), never the target's.
  const card = other.target.card ?? (await cardOf(other.target));
  return {
    ...route,
    target: {
      ...target,
      card,
      ...(other.target.credentialSealed ? { credentialSealed: other.target.credentialSealed } : {}),
      ...(other.target.credentialHeader ? { credentialHeader: other.target.credentialHeader } : {}),
      timeoutMs: other.target.timeoutMs,
    },
  };
}
