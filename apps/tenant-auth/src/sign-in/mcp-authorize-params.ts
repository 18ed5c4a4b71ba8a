import { single } from './authorize-params';

/** I22: what a person's own MCP client may ask for: calling the one server, and staying signed in. */
const MCP_SCOPES = new Set(['mcp:call', 'offline_access']);
const SERVER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** identity.md I22 (D43, RFC 8707). */
export function parseMcpAuthorize(
  query: Record<string, unknown>,
  resourcePrefix: string,
): { scope: string; resource: string } | { error: string; description: string } {
  const resource = single(query, 'resource');
  const serverId = resource?.startsWith(resourcePrefix)
    ? resource.slice(resourcePrefix.length)
    : undefined;
  if (!resource || !serverId || !SERVER_ID.test(serverId)) {
    return {
      error: 'invalid_target',
      description: `resource must be the URL of an MCP server on this platform, ${resourcePrefix}{serverId}`,
    };
  }
  const scopes = (single(query, 'scope') ?? 'mcp:call').split(' ').filter(Boolean);
  const unknown = scopes.find((scope) => !MCP_SCOPES.has(scope));
  if (unknown) {
    return { error: 'invalid_scope', description: `unknown scope ${unknown}` };
  }
  const granted = new Set(['mcp:call', ...scopes]);
  return { scope: [...granted].join(' '), resource: `${resourcePrefix}${serverId.toLowerCase()}` };
}
