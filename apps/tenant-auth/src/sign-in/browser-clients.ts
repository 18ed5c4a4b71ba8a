import { stripTrailingSlash } from '@agp/config';

import { TenantAuthEnv } from '../config/tenant-auth.env';

/** identity.md I14: the console, a public client (no secret; PKCE binds the code to its browser). */
export const CONSOLE_CLIENT_ID = 'agp-console';
export const CONSOLE_CALLBACK_PATH = '/auth/callback';

export interface BrowserClient {
  id: string;
  /** The console, or a person's own MCP client (identity.md I21, D43). */
  kind: 'CONSOLE' | 'MCP';
  /** What the consent page calls an MCP client (its `client_name`, else its id). */
  name?: string;
  /** Matched exactly, character for character (RFC 9700 §4.1.3). */
  redirectUris: ReadonlySet<string>;
  postLogoutRedirectUris: ReadonlySet<string>;
}

/** The browser clients this tenant-auth knows: the console at PUBLIC_BASE_URL and CONSOLE_ORIGINS. */
export function browserClients(env: TenantAuthEnv): ReadonlyMap<string, BrowserClient> {
  const bases = [
    stripTrailingSlash(env.PUBLIC_BASE_URL),
    ...(env.CONSOLE_ORIGINS ?? '').split(',').filter(Boolean).map(stripTrailingSlash),
  ];
  const console: BrowserClient = {
    id: CONSOLE_CLIENT_ID,
    kind: 'CONSOLE',
    redirectUris: new Set(bases.map((base) => `${base}${CONSOLE_CALLBACK_PATH}`)),
    postLogoutRedirectUris: new Set(bases.map((base) => `${base}/`)),
  };
  return new Map([[console.id, console]]);
}
