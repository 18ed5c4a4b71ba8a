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

/** The traffic paths whose callers hold relay-audience tokens (D8; A2A alike, issue 13). */
const RELAY_AUDIENCE_PATHS = ['/relay/mcp', '/relay/a2a'];

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
