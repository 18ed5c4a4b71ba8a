import { stripTrailingSlash } from '@agp/config';

import { GatewayEnv } from '../config/gateway.env';

export interface UpstreamRoute {
  /** Everything under this prefix goes to `upstream`. */
  prefix: string;
  upstream: string;
}

/** D1: each service owns its prefix; the gateway forwards it unchanged. */
export function upstreamRoutes(env: GatewayEnv): UpstreamRoute[] {
  return [
    { prefix: '/tenant-auth/v1/', upstream: stripTrailingSlash(env.TENANT_AUTH_URL) },
    { prefix: '/relay/', upstream: stripTrailingSlash(env.RELAY_URL) },
    { prefix: '/audit/v1/', upstream: stripTrailingSlash(env.AUDIT_URL) },
  ];
}
