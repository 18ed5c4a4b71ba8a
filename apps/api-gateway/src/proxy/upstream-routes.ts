import { stripTrailingSlash } from '@agp/config';

import { GatewayEnv } from '../config/gateway.env';

export interface UpstreamRoute {
  /** Everything under this prefix goes to `upstream`. */
  prefix: string;
  upstream: string;
  /** A traffic path (D20): long waits (human review, streams), many connections (T15). */
  isTraffic?: boolean;
  /** A JSON body limit of its own, where the owning service takes more than D12's 1 MiB. */
  bodyLimit?: number;
}

/** D54: OTLP export requests may hold 4 MiB (the audit service checks it after decompression). */
export const OTLP_INGEST_BODY_LIMIT = 4 * 1024 * 1024;

/** D1: each service owns its prefix; the gateway forwards it unchanged. */
export function upstreamRoutes(env: GatewayEnv): UpstreamRoute[] {
  const relay = stripTrailingSlash(env.RELAY_URL);
  return [
    ...['/relay/mcp/', '/relay/a2a/', '/relay/a2a-push/', '/relay/llm/'].map((prefix) => ({
      prefix,
      upstream: relay,
      isTraffic: true,
    })),
    { prefix: '/tenant-auth/v1/', upstream: stripTrailingSlash(env.TENANT_AUTH_URL) },
    { prefix: '/relay/', upstream: relay },
    {
      prefix: '/audit/v1/telemetry/v1/',
      upstream: stripTrailingSlash(env.AUDIT_URL),
      bodyLimit: OTLP_INGEST_BODY_LIMIT,
    },
    { prefix: '/audit/v1/', upstream: stripTrailingSlash(env.AUDIT_URL) },
  ];
}
