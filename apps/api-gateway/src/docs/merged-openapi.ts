import { GatewayEnv } from '../config/gateway.env';
import { stripTrailingSlash } from '@agp/config';
import { OPENAPI_INTERFACE_VERSION } from '@agp/http';

type OpenApiDocument = {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: unknown[];
};

const FETCH_TIMEOUT_MS = 5_000;

/** Paths never collide (each service owns its prefix, D1, issue 18, § 1). */
export async function mergedOpenApiDocument(env: GatewayEnv): Promise<object> {
  const services = {
    'tenant-auth': env.TENANT_AUTH_URL,
    relay: env.RELAY_URL,
    audit: env.AUDIT_URL,
  };
  const documents = await Promise.all(
    Object.entries(services).map(async ([service, url]) => ({
      service,
      document: await fetchDocument(service, url),
    })),
  );
  const merged = {
    openapi: '3.1.0',
    info: {
      title: 'Agent Governance Platform',
      version: OPENAPI_INTERFACE_VERSION,
      description:
        'Every route of tenant-auth, the relay and audit as the gateway serves them (D1). ' +
        'Traffic paths (`/relay/mcp`, `/relay/a2a`, `/relay/llm`) speak their protocols; see ' +
        'each operation. Events: `/asyncapi.json`.',
    },
    paths: {} as Record<string, unknown>,
    components: { schemas: {} as Record<string, unknown>, securitySchemes: {} },
  };
  for (const { service, document } of documents) {
    const text = renameClashes(service, document, merged.components.schemas);
    const renamed = JSON.parse(text) as OpenApiDocument;
    Object.assign(merged.paths, renamed.paths);
    Object.assign(merged.components.schemas, renamed.components?.schemas);
    Object.assign(merged.components.securitySchemes, renamed.components?.securitySchemes);
  }
  return merged;
}

function renameClashes(
  service: string,
  document: OpenApiDocument,
  merged: Record<string, unknown>,
): string {
  let text = JSON.stringify(document);
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (name in merged && JSON.stringify(merged[name]) !== JSON.stringify(schema)) {
      const renamed = `${service.replace(/-/g, '_')}_${name}`;
      text = text
        .split(`"#/components/schemas/${name}"`)
        .join(`"#/components/schemas/${renamed}"`)
        .split(`"${name}":`)
        .join(`"${renamed}":`);
    }
  }
  return text;
}

async function fetchDocument(service: string, url: string): Promise<OpenApiDocument> {
  const response = await fetch(`${stripTrailingSlash(url)}/openapi.json`, {
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  }).catch((error: unknown) => {
    throw new Error(`${service} is unreachable: ${String(error)}`);
  });
  if (!response.ok) {
    throw new Error(`${service} answered ${response.status} for its OpenAPI document`);
  }
  return (await response.json()) as OpenApiDocument;
}
