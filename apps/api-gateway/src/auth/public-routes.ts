/** The only proxied routes that need no bearer token (D6, I14, A12, D1). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/tenant-auth/v1/oauth/token',
  '/tenant-auth/v1/.well-known/jwks.json',
  '/tenant-auth/v1/.well-known/openid-configuration',
  '/audit/v1/integrity/keys',
  // D59 (marketplace.md MK22): the licence keys, for offline verifiers without a token.
  '/relay/v1/licences/keys',
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

/** traffic.md T40: where a target agent sends the pushes of a configuration given through the relay. */
const A2A_PUSH_CALLBACK = /^\/relay\/a2a-push\/[0-9a-f-]{36}$/i;

/** D43, D56: channel events; the relay checks each kind's own signing (channels.md CH2). */
const CHANNEL_EVENTS = /^\/relay\/channels\/[0-9a-f-]{36}\/events(\/[0-9a-f-]{36})?$/i;

export const PROTECTED_PREFIXES: readonly string[] = ['/tenant-auth/', '/relay/', '/audit/'];

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

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
