import { BrowserClient } from './browser-clients';
import { parseMcpAuthorize } from './mcp-authorize-params';
import { S256_CHALLENGE } from './pkce';

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | null;
  nonce: string | null;
  codeChallenge: string;
  /** A tenant slug or id the client already knows (`tenant`, our extension). */
  tenantHint: string | null;
  prompt: 'none' | 'login' | null;
  /** RFC 8707: the MCP server a person's own client asks a token for (I22); null for the console. */
  resource: string | null;
}

// What an authorization request may come to. A request with an unknown client or redirect URI is
// never redirected anywhere (RFC 6749 §4.1.2.1): it is shown as an error page.
export type ParsedAuthorize =
  | { kind: 'ok'; params: AuthorizeParams }
  | { kind: 'page-error'; description: string }
  | {
      kind: 'redirect-error';
      redirectUri: string;
      state: string | null;
      error: string;
      description: string;
    };

const SCOPES = new Set(['openid', 'svc:api', 'offline_access', 'email', 'profile']);
const MAX_PARAM = 500;

export function single(query: Record<string, unknown>, name: string): string | null | undefined {
  const value = query[name];
  if (value === undefined || value === '') {
    return null;
  }
  // A repeated parameter is an error (RFC 6749 §3.1); undefined marks it.
  return typeof value === 'string' && value.length <= MAX_PARAM ? value : undefined;
}

/** identity.md I14: the authorization code flow with PKCE S256 required, nothing else (I21). */
export function parseAuthorize(
  query: Record<string, unknown>,
  clients: ReadonlyMap<string, BrowserClient>,
  mcpResourcePrefix = '',
): ParsedAuthorize {
  const clientId = single(query, 'client_id');
  const client = clientId ? clients.get(clientId) : undefined;
  if (!client) {
    return { kind: 'page-error', description: 'The application asking you to sign in is unknown.' };
  }
  const redirectUri = single(query, 'redirect_uri');
  if (!redirectUri || !client.redirectUris.has(redirectUri)) {
    return {
      kind: 'page-error',
      description: 'The address to return to is not registered for this application.',
    };
  }
  const state = single(query, 'state');
  const fail = (error: string, description: string): ParsedAuthorize => ({
    kind: 'redirect-error',
    redirectUri,
    state: state ?? null,
    error,
    description,
  });
  const names = ['response_type', 'scope', 'state', 'nonce', 'code_challenge', 'resource'];
  const repeated = [...names, 'code_challenge_method', 'tenant', 'prompt'].find(
    (name) => single(query, name) === undefined,
  );
  if (repeated) {
    return fail('invalid_request', `parameter ${repeated} must be given once`);
  }
  if (single(query, 'response_type') !== 'code') {
    return fail('unsupported_response_type', 'only response_type=code is supported');
  }
  const codeChallenge = single(query, 'code_challenge');
  if (!codeChallenge || single(query, 'code_challenge_method') !== 'S256') {
    return fail(
      'invalid_request',
      'PKCE is required: code_challenge with code_challenge_method=S256',
    );
  }
  if (!S256_CHALLENGE.test(codeChallenge)) {
    return fail('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters)');
  }
  const prompt = single(query, 'prompt');
  if (prompt && prompt !== 'none' && prompt !== 'login') {
    return fail('invalid_request', 'prompt must be none or login');
  }
  const common = {
    clientId: client.id,
    redirectUri,
    state: state ?? null,
    codeChallenge,
    tenantHint: single(query, 'tenant')?.toLowerCase() ?? null,
    prompt: (prompt as 'none' | 'login' | null) ?? null,
  };
  if (client.kind === 'MCP') {
    const mcp = parseMcpAuthorize(query, mcpResourcePrefix);
    return 'error' in mcp
      ? fail(mcp.error, mcp.description)
      : { kind: 'ok', params: { ...common, ...mcp, nonce: single(query, 'nonce') ?? null } };
  }
  const scopes = (single(query, 'scope') ?? '').split(' ').filter(Boolean);
  if (!scopes.includes('openid')) {
    return fail('invalid_scope', 'scope must include openid');
  }
  const unknown = scopes.find((scope) => !SCOPES.has(scope));
  if (unknown) {
    return fail('invalid_scope', `unknown scope ${unknown}`);
  }
  const nonce = single(query, 'nonce');
  if (!nonce) {
    // Our only client is a browser application: the nonce ties the ID token to its request.
    return fail('invalid_request', 'nonce is required');
  }
  return {
    kind: 'ok',
    params: { ...common, scope: [...new Set(scopes)].join(' '), nonce, resource: null },
  };
}

/** The client's redirect URI with the answer's parameters (and `iss`, RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== null) {
      url.searchParams.set(name, value);
    }
  }
  return url.toString();
}
