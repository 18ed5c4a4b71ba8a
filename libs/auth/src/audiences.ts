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

/** The traffic paths of D20 whose callers hold `{base_url}/relay` tokens (D8). */
const RELAY_AUDIENCE_PATHS = ['/relay/mcp', '/relay/llm'];

/**
 * D8: `/relay/mcp/...` takes only `mcp:call` tokens; so does the LLM path `/relay/llm/...` (T16:
 * an agent's traffic token is one token whatever it talks to); every other path only API tokens.
 */
export function audienceForPath(audiences: Audiences, path: string): string {
  return RELAY_AUDIENCE_PATHS.some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`),
  )
    ? audiences.mcp
    : audiences.api;
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
