/**
 * The only proxied routes that need no bearer token: D6's three (token, JWKS, discovery) and the
 * audit checkpoint keys, public like any JWKS (audit's A12). The owning services mark the same
 * routes @Public(); everything else is refused without a valid token here and there (D1).
 */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/tenant-auth/v1/oauth/token',
  '/tenant-auth/v1/.well-known/jwks.json',
  '/tenant-auth/v1/.well-known/openid-configuration',
  '/audit/v1/integrity/keys',
]);

/** The prefixes the gateway proxies (D1); everything under them needs a token unless public. */
export const PROTECTED_PREFIXES: readonly string[] = ['/tenant-auth/', '/relay/', '/audit/'];

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Whether the gateway verifies a token before forwarding this request. */
export function needsToken(url: string): boolean {
  const path = pathOf(url);
  return PROTECTED_PREFIXES.some((prefix) => path.startsWith(prefix)) && !PUBLIC_PATHS.has(path);
}
