export interface Audiences {
  /** D8: the API audience, `AUTH_AUDIENCE` ({base_url}). */
  api: string;
  /** D8: the MCP audience, `{base_url}/relay`. */
  mcp: string;
}

export function audiencesFor(apiAudience: string): Audiences {
  const api = apiAudience.replace(/\/+$/, '');
  return { api, mcp: `${api}/relay` };
}

/** The traffic paths of D20 whose callers hold `{base_url}/relay` tokens (D8, issue 13, T16). */
const RELAY_AUDIENCE_PATHS = ['/relay/mcp', '/relay/a2a', '/relay/llm'];

/** D8: the traffic paths take only `mcp:call` tokens; every other path only API tokens. */
export function audienceForPath(audiences: Audiences, path: string): string {
  const isTraffic = RELAY_AUDIENCE_PATHS.some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`),
  );
  return isTraffic ? audiences.mcp : audiences.api;
}

export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  if (typeof authorization !== 'string') {
    return undefined;
  }
  const match = /^Bearer ([A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]*)$/i.exec(
    authorization.trim(),
  );
  return match?.[1];
}

const MCP_SERVER_PATH = /^\/relay\/mcp\/([0-9a-f-]{36})(?:[/?]|$)/i;

/** The MCP server path of D43 a request is on, as `{base_url}/relay/mcp/{serverId}`, or undefined. */
export function mcpResourceOf(audiences: Audiences, path: string): string | undefined {
  const serverId = MCP_SERVER_PATH.exec(path)?.[1];
  return serverId ? `${audiences.mcp}/mcp/${serverId.toLowerCase()}` : undefined;
}

/** RFC 6750 §3 and RFC 9728 §5.1 (D43, relay.md R28): a 401's challenge. */
export function bearerChallenge(audiences: Audiences, path: string, hadToken: boolean): string {
  const resource = mcpResourceOf(audiences, path);
  if (!resource) {
    return 'Bearer error="invalid_token"';
  }
  const metadata = `${audiences.api}/.well-known/oauth-protected-resource${resource.slice(audiences.api.length)}`;
  const error = hadToken ? ', error="invalid_token"' : '';
  return `Bearer resource_metadata="${metadata}", scope="mcp:call"${error}`;
}
