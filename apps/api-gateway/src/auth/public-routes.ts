/**
 * The only proxied routes that need no bearer token: D6's three (token, JWKS, discovery), browser
 * sign-in (identity.md I14) and the
 * audit checkpoint keys, public like any JWKS (audit's A12). The owning services mark the same
 * routes @Public(); everything else is refused without a valid token here and there (D1).
 */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/tenant-auth/v1/oauth/token',
  '/tenant-auth/v1/.well-known/jwks.json',
  '/tenant-auth/v1/.well-known/openid-configuration',
  '/audit/v1/integrity/keys',
  // identity.md I14: browser sign-in, reached before the browser holds a token.
  '/tenant-auth/v1/oauth/authorize',
  '/tenant-auth/v1/oauth/authorize/password',
  '/tenant-auth/v1/oauth/authorize/federated',
  '/tenant-auth/v1/oauth/logout',
  // identity.md I23, I24: a person's MCP client registers and the person consents with no token.
  '/tenant-auth/v1/oauth/register',
  '/tenant-auth/v1/oauth/authorize/consent',
]);

/** I14: where an identity provider sends the browser back (`{issuer}/identity-providers/{id}/callback`, I9). */
const IDP_CALLBACK = /^\/tenant-auth\/v1\/identity-providers\/[0-9a-f-]{36}\/callback$/i;

/**
 * traffic.md T40: where a target agent sends the pushes of a configuration given through the
 * relay. It holds no platform token; the relay checks the token it issued for the callback.
 */
const A2A_PUSH_CALLBACK = /^\/relay\/a2a-push\/[0-9a-f-]{36}$/i;

/**
 * D43, D56 (channels.md CH2): where a channel's platform posts its events, and where an embedded
 * web chat reads its replies. The platform holds no platform token; the relay checks the kind's
 * own signing (Slack's signature, Standard Webhooks, the channel key and origin).
 */
const CHANNEL_EVENTS = /^\/relay\/channels\/[0-9a-f-]{36}\/events(\/[0-9a-f-]{36})?$/i;

/** The prefixes the gateway proxies (D1); everything under them needs a token unless public. */
export const PROTECTED_PREFIXES: readonly string[] = ['/tenant-auth/', '/relay/', '/audit/'];

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Whether the gateway verifies a token before forwarding this request. */
export function needsToken(url: string): boolean {
  const path = pathOf(url);
  return (
    PROTECTED_PREFIXES.some((prefix) => path.startsWith(prefix)) &&
    !PUBLIC_PATHS.has(path) &&
    !IDP_CALLBACK.test(path) &&
    !A2A_PUSH_CALLBACK.test(path) &&
    !CHANNEL_EVENTS.test(path)
  );
}
