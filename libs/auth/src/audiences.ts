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

/** D8: `/relay/mcp/...` takes only `mcp:call` tokens; every other path only API tokens. */
export function audienceForPath(audiences: Audiences, path: string): string {
  return path === '/relay/mcp' || path.startsWith('/relay/mcp/') || path.startsWith('/relay/mcp?')
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
