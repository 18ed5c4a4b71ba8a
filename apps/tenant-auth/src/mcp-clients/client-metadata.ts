/** The RFC 7591 §2 fields this server reads; the rest of a document is kept as it came. */
export interface ClientMetadata {
  client_id?: string;
  client_name?: string;
  client_uri?: string;
  redirect_uris: string[];
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: string;
  scope?: string;
  [field: string]: unknown;
}

const MAX_URIS = 10;
const MAX_TEXT = 2_000;
const GRANTS = new Set(['authorization_code', 'refresh_token']);

/** RFC 7591 §2 as this authorization server takes it (identity.md I24, RFC 8252, §7.3). */
export function metadataProblem(
  metadata: unknown,
): { error: 'invalid_redirect_uri' | 'invalid_client_metadata'; description: string } | null {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) {
    return { error: 'invalid_client_metadata', description: 'the metadata must be a JSON object' };
  }
  const m = metadata as Record<string, unknown>;
  const uris: unknown = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_URIS) {
    return {
      error: 'invalid_redirect_uri',
      description: `redirect_uris must list 1 to ${MAX_URIS} URIs`,
    };
  }
  const bad: unknown = (uris as unknown[]).find((uri) => !isRedirectUri(uri));
  if (bad !== undefined) {
    return {
      error: 'invalid_redirect_uri',
      description: `redirect URI ${JSON.stringify(bad).slice(0, 200)} must be https, http to a loopback address or a private-use scheme, without a fragment`,
    };
  }
  const method = m.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    return {
      error: 'invalid_client_metadata',
      description:
        'token_endpoint_auth_method must be none: MCP clients here are public and use PKCE',
    };
  }
  const grants = m.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grants) || grants.some((g) => !GRANTS.has(g as string))) {
    return {
      error: 'invalid_client_metadata',
      description: 'grant_types may hold authorization_code and refresh_token only',
    };
  }
  const responses = m.response_types ?? ['code'];
  if (!Array.isArray(responses) || responses.some((r) => r !== 'code')) {
    return { error: 'invalid_client_metadata', description: 'response_types may hold code only' };
  }
  for (const field of ['client_name', 'client_uri', 'scope']) {
    const value = m[field];
    if (value !== undefined && (typeof value !== 'string' || value.length > MAX_TEXT)) {
      return {
        error: 'invalid_client_metadata',
        description: `${field} must be text of at most ${MAX_TEXT} characters`,
      };
    }
  }
  if (JSON.stringify(m).length > 10_000) {
    return { error: 'invalid_client_metadata', description: 'the metadata is too large' };
  }
  return null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function isRedirectUri(uri: unknown): boolean {
  if (typeof uri !== 'string' || uri.length > MAX_TEXT || uri.includes('#')) {
    return false;
  }
  try {
    const url = new URL(uri);
    // RFC 8252 §7.1: a native app's private-use scheme is a reversed domain name (`com.example.app:`).
    const isPrivateUse = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol);
    return (
      url.protocol === 'https:' ||
      (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) ||
      isPrivateUse
    );
  } catch {
    return false;
  }
}
