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

/**
 * The traffic paths of D20 whose callers hold `{base_url}/relay` tokens (D8): MCP, A2A (issue 13)
 * and the LLM path (T16: an agent's traffic token is one token whatever it talks to).
 */
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
