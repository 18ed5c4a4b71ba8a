import { JsonSchema, Schemas } from './schema-arbitrary';

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the served document, as the fuzzer needs it. */
export interface FuzzOperation {
  /** `POST /relay/v1/agents/{agentId}`: the key of figures and recorded cases. */
  key: string;
  method: string;
  path: string;
  pathParameters: OperationParameter[];
  queryParameters: OperationParameter[];
  /** Media type → schema of the documented request body, if any. */
  body?: { mediaType: string; schema: JsonSchema };
  isPublic: boolean;
  /** `MCP_REGISTRY:WRITE` (D10), when the route names one. */
  permission?: string;
  /** `/relay/mcp/…`, `/relay/a2a/…`, `/relay/llm/…`: a protocol of its own (D20). */
  isTraffic: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Schemas };
}

const VERBS = ['get', 'put', 'post', 'delete', 'patch'];

interface RawOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
  'x-required-permission'?: string;
}

/** Every operation of the document, in the document's order. */
export function operationsOf(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const verb of VERBS) {
      const raw = item[verb] as RawOperation | undefined;
      if (!raw) {
        continue;
      }
      const parameters = (raw.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in as OperationParameter['in'],
        required: p.required ?? p.in === 'path',
        schema: p.schema ?? {},
      }));
      const [mediaType, media] = Object.entries(raw.requestBody?.content ?? {})[0] ?? [];
      operations.push({
        key: `${verb.toUpperCase()} ${path}`,
        method: verb.toUpperCase(),
        path,
        pathParameters: parameters.filter((p) => p.in === 'path'),
        queryParameters: parameters.filter((p) => p.in === 'query'),
        body: mediaType ? { mediaType, schema: media?.schema ?? {} } : undefined,
        isPublic: Array.isArray(raw.security) && raw.security.length === 0,
        permission: raw['x-required-permission'],
        isTraffic: /^\/relay\/(mcp|a2a|llm)\//.test(path),
      });
    }
  }
  return operations;
}

/**
 * The collection a path parameter names a member of: `/relay/v1/policy-groups/{groupId}/versions`
 * for `versionId` in `/relay/v1/policy-groups/{groupId}/versions/{versionId}/…`. Resources created
 * by POST to that collection are what the parameter can name.
 */
export function collectionOf(path: string, parameter: string): string {
  const at = path.indexOf(`/{${parameter}}`);
  return at < 0 ? path : path.slice(0, at);
}

/** The names of the path parameters of a template, in order. */
export function parametersOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}
