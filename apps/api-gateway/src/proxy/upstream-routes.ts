import { stripTrailingSlash } from '@agp/config';

import { GatewayEnv } from '../config/gateway.env';

export interface UpstreamRoute {
  prefix: string;
  upstream: string;
  /** A traffic path (D20): long waits (human review, streams), many connections (T15). */
  isTraffic?: boolean;
  /** A JSON body limit of its own, where the owning service takes more than D12's 1 MiB. */
  bodyLimit?: number;
}

/** D54: OTLP export requests may hold 4 MiB (the audit service checks it after decompression). */
export const OTLP_INGEST_BODY_LIMIT = 4 * 1024 * 1024;

export function upstreamRoutes(env: GatewayEnv): UpstreamRoute[] {
  const relay = stripTrailingSlash(env.RELAY_URL);
  return [
    // D43: a person's A2A path waits like an agent's (human review, streams); so do channels.
    ...[
      '/relay/mcp/',
      '/relay/a2a/',
      '/relay/a2a-push/',
      '/relay/llm/',
      '/relay/human/',
      '/relay/channels/',
    ].map((prefix) => ({
      prefix,
      upstream: relay,
      isTraffic: true,
    })),
    { prefix: '/tenant-auth/v1/', upstream: stripTrailingSlash(env.TENANT_AUTH_URL) },
    // D43 (I25, R28): the well-known name before the issuer's path (RFC 8414, RFC 9728).
    ...[
      '/.well-known/oauth-authorization-server/tenant-auth/',
      '/.well-known/openid-configuration/tenant-auth/',
    ].map((prefix) => ({ prefix, upstream: stripTrailingSlash(env.TENANT_AUTH_URL) })),
    { prefix: '/.well-known/oauth-protected-resource/relay/', upstream: relay },
    { prefix: '/relay/', upstream: relay },
    {
      prefix: '/audit/v1/telemetry/v1/',
      upstream: stripTrailingSlash(env.AUDIT_URL),
      bodyLimit: OTLP_INGEST_BODY_LIMIT,
    },
    { prefix: '/audit/v1/', upstream: stripTrailingSlash(env.AUDIT_URL) },
  ];
}

/** Every other `/.well-known/` path is answered 404 here, never with the console's page (D43). */
export const WELL_KNOWN = '/.well-known/';
