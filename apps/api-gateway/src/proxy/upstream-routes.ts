import { stripTrailingSlash } from '@agp/config';

import { GatewayEnv } from '../config/gateway.env';

export interface UpstreamRoute {
  /** A fastify wildcard route: everything under it goes to `upstream`. */
  path: string;
  upstream: string;
}

/** D1: each service owns its prefix; the gateway forwards it unchanged. */
export function upstreamRoutes(env: GatewayEnv): UpstreamRoute[] {
  return [
    { path: '/tenant-auth/v1/*', upstream: stripTrailingSlash(env.TENANT_AUTH_URL) },
    { path: '/relay/*', upstream: stripTrailingSlash(env.RELAY_URL) },
    { path: '/audit/v1/*', upstream: stripTrailingSlash(env.AUDIT_URL) },
  ];
}
