import { INestApplication, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

import { classJsonSchemas } from '../class-schemas';
import { PUBLIC_ROUTE_KEY } from '../public-route';
import { REQUIRED_PERMISSION_KEY } from '../required-permission';
import { markBeyondSpecification } from './beyond-specification';
import { PROBLEM_SCHEMA, problemContent, problemResponses } from './problem-responses';
import { ResponseSchemas } from './response-schemas';
import HTTP_RESPONSE_SCHEMAS from './response-schemas.json';

type JsonSchema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  operationId?: string;
  description?: string;
  tags?: string[];
  security?: object[];
  parameters?: Parameter[];
  requestBody?: object;
  responses?: Record<string, object>;
  [extension: `x-${string}`]: unknown;
}

/** The paths keep their `v1` segment: that is the path's major version, not this label. */
export const OPENAPI_INTERFACE_VERSION = 'v0';

export interface OpenApiInfo {
  title: string;
  description?: string;
  /** The schemas of the handlers' answers, generated from their return types (F24). */
  responses?: readonly ResponseSchemas[];
}

interface Handler {
  controller: Type<unknown>;
  method: string;
}

const SCHEMA_REF = '#/components/schemas/';

/** Issue 18 § 1: schemas from the metadata the pipe enforces, so it never promises what it refuses. */
export function buildOpenApiDocument(app: INestApplication, info: OpenApiInfo): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(info.title)
    .setVersion(OPENAPI_INTERFACE_VERSION)
    .setDescription(info.description ?? '')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller}_${method}`,
  });
  const handlers = handlersById(app);
  const dtoSchemas = classJsonSchemas(SCHEMA_REF);
  const used = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [verb, operation] of Object.entries(item as object) as [string, Operation][]) {
      const handler = handlers.get(operation.operationId ?? '');
      if (handler) {
        describeOperation(operation, handler, path, verb, dtoSchemas, used);
      }
    }
  }
  const requestSchemas = referencedSchemas(used, dtoSchemas);
  const answers = withoutClashes(
    mergedResponses([HTTP_RESPONSE_SCHEMAS, ...(info.responses ?? [])]),
    new Set([...Object.keys(requestSchemas), 'Problem']),
  );
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as object) as Operation[]) {
      if (handlers.has(operation.operationId ?? '')) {
        describeAnswer(operation, answers.operations[operation.operationId ?? '']);
      }
    }
  }
  document.components = {
    ...document.components,
    schemas: { ...requestSchemas, ...answers.schemas, Problem: PROBLEM_SCHEMA },
  };
  // D42: what the platform adds to the specification's value sets is marked where it appears.
  markBeyondSpecification(document);
  return document;
}

function describeOperation(
  operation: Operation,
  handler: Handler,
  path: string,
  verb: string,
  dtoSchemas: Record<string, JsonSchema>,
  used: Set<string>,
): void {
  const target = (handler.controller.prototype as Record<string, object>)[handler.method];
  const isPublic = Boolean(
    Reflect.getMetadata(PUBLIC_ROUTE_KEY, target) ??
    Reflect.getMetadata(PUBLIC_ROUTE_KEY, handler.controller),
  );
  const permission = (Reflect.getMetadata(REQUIRED_PERMISSION_KEY, target) ??
    Reflect.getMetadata(REQUIRED_PERMISSION_KEY, handler.controller)) as
    { entity: string; permission: string } | undefined;
  operation.tags = [tagOf(path)];
  const protocol = TRAFFIC_PROTOCOLS.find(([prefix]) => path.startsWith(prefix))?.[1];
  if (protocol) {
    operation.description = protocol;
  }
  operation.security = isPublic ? [] : [{ bearer: [] }];
  if (permission) {
    const required = `${permission.entity}:${permission.permission}`;
    operation['x-required-permission'] = required;
    operation.description = [
      operation.description,
      `Requires the permission \`${required}\` (D10).`,
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  const args = routeArguments(handler, dtoSchemas);
  const parameters = operation.parameters ?? [];
  for (const arg of args) {
    if (arg.type === RouteParamtypes.BODY && arg.dto && dtoSchemas[arg.dto]) {
      used.add(arg.dto);
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `${SCHEMA_REF}${arg.dto}` } } },
      };
    }
    if (arg.type === RouteParamtypes.QUERY && arg.dto && !arg.data && dtoSchemas[arg.dto]) {
      parameters.push(...queryParameters(dtoSchemas[arg.dto], dtoSchemas));
    }
    if (arg.type === RouteParamtypes.PARAM && arg.data && arg.isUuid) {
      const parameter = parameters.find((p) => p.in === 'path' && p.name === arg.data);
      if (parameter) {
        parameter.schema = { type: 'string', format: 'uuid' };
      }
    }
  }
  operation.parameters = dedupe(parameters);
  const hasInput = operation.parameters.length > 0 || operation.requestBody !== undefined;
  operation.responses = {
    ...problemResponses({
      isPublic,
      hasInput,
      hasBody: operation.requestBody !== undefined,
      hasPathIds: /\{[^}]+\}/.test(path),
      verb,
    }),
    ...declaredResponses(operation.responses),
  };
}

// Declared answers get the schema of what the handler returns (F24); a problem keeps its own.
function describeAnswer(operation: Operation, schema: object | undefined): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const isDeclared = 'content' in response || Number(status) >= 400;
    if (schema && status !== '204' && !isDeclared) {
      operation.responses![status] = {
        ...response,
        content: { 'application/json': { schema } },
      };
    }
  }
}

function withoutClashes(answers: ResponseSchemas, taken: Set<string>): ResponseSchemas {
  let text = JSON.stringify(answers);
  for (const name of Object.keys(answers.schemas).filter((n) => taken.has(n))) {
    text = text
      .split(`"${SCHEMA_REF}${name}"`)
      .join(`"${SCHEMA_REF}${name}Response"`)
      .split(`"${name}":`)
      .join(`"${name}Response":`);
  }
  return JSON.parse(text) as ResponseSchemas;
}

function mergedResponses(all: readonly ResponseSchemas[]): ResponseSchemas {
  return {
    operations: Object.assign({}, ...all.map((r) => r.operations)) as ResponseSchemas['operations'],
    schemas: Object.assign({}, ...all.map((r) => r.schemas)) as ResponseSchemas['schemas'],
  };
}

/** The traffic paths (D20) speak a protocol of their own; the document says which. */
const TRAFFIC_PROTOCOLS: ReadonlyArray<readonly [string, string]> = [
  [
    '/relay/mcp/',
    'MCP over Streamable HTTP (JSON-RPC 2.0, JSON or SSE answers; ' +
      'https://modelcontextprotocol.io/specification), relayed to the MCP server with policy on ' +
      'every message both ways (D20, D33). An `mcp:call` token with the audience ' +
      '`{base_url}/relay` (D8) of an agent subscribed to the server (D32). Refusals are ' +
      'JSON-RPC errors with codes of their own (D41: -31001 blocked_by_policy … -31029 ' +
      'rate_limited, the name in `data.agpCode`); a body that is not JSON-RPC is answered as ' +
      "the MCP SDK's server answers it (HTTP 400, -32700 or -32600; D61).",
  ],
  [
    '/relay/a2a/',
    'The A2A protocol (JSON-RPC 2.0 over HTTP, SSE for streams; https://a2a-protocol.org), ' +
      'relayed to the target agent with policy on every message and event (D38). A token with ' +
      'the audience `{base_url}/relay` of an agent subscribed to the target (D32). Refusals ' +
      'are JSON-RPC errors with codes of their own (D41, the name in `data.agpCode`); a body ' +
      'that is not a JSON-RPC request gets HTTP 200 with -32700 or -32600 (A2A 1.0 § 9, D61).',
  ],
  [
    '/relay/human/',
    'The A2A protocol (JSON-RPC 2.0 over HTTP, SSE for streams; https://a2a-protocol.org) as ' +
      "a person speaks it to an agent (D43, D56): the signed-in user's own token (audience " +
      '`{base_url}`, the one the console holds) and a USER_TO_AGENT subscription (D32; none is ' +
      '403). The person is the party of every hop, judged both ways with refusals as on ' +
      '`/relay/a2a/` (D41, the name in `data.agpCode`); push notifications are not offered ' +
      '(-32003).',
  ],
  [
    '/relay/a2a-push/',
    'Where a target agent posts the A2A push notifications (https://a2a-protocol.org) of a ' +
      'configuration a caller gave through `/relay/a2a/`: no platform token, the token the relay ' +
      'issued for this callback (`X-A2A-Notification-Token`). Each push is judged as a hop and ' +
      "delivered to the caller's URL signed as webhooks are (D19; traffic.md T40-T43).",
  ],
  [
    '/relay/llm/',
    'The OpenAI-compatible API (https://platform.openai.com/docs/api-reference/chat), relayed ' +
      "to the gateway's providers in order with failover, policy on the request and the " +
      'completion, streamed or not (D39). A token with the audience `{base_url}/relay` of an ' +
      'agent subscribed to the LLM gateway (D32). ' +
      "Refusals are problem+json with OpenAI's " +
      '`error` and the stable `agpCode` of D41 in both.',
  ],
];

/** `/relay/v1/mcp-servers/{id}` → `relay: mcp-servers`, so the UI groups routes as people look. */
function tagOf(path: string): string {
  const [service, version, resource] = path.split('/').filter(Boolean);
  return version?.startsWith('v') && resource ? `${service}: ${resource}` : (service ?? 'platform');
}

interface RouteArgument {
  type: RouteParamtypes;
  data?: string;
  dto?: string;
  isUuid: boolean;
}

function routeArguments(handler: Handler, schemas: Record<string, JsonSchema>): RouteArgument[] {
  const metadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, handler.controller, handler.method) ??
    {}) as Record<string, { index: number; data?: unknown; pipes?: unknown[] }>;
  const types = (Reflect.getMetadata(
    'design:paramtypes',
    handler.controller.prototype as object,
    handler.method,
  ) ?? []) as Array<Type<unknown> | undefined>;
  return Object.entries(metadata).map(([key, arg]) => {
    const type = Number(key.split(':')[0]) as RouteParamtypes;
    const dto = types[arg.index];
    return {
      type,
      data: typeof arg.data === 'string' ? arg.data : undefined,
      dto: dto && dto !== Object && dto !== String ? schemaNameOf(dto, schemas) : undefined,
      isUuid: (arg.pipes ?? []).some((pipe) => pipe?.constructor?.name === 'ParseUUIDPipe'),
    };
  });
}

/** The schema a DTO class is described by (F21). */
function schemaNameOf(type: Type<unknown>, schemas: Record<string, JsonSchema>): string {
  for (
    let current: unknown = type;
    typeof current === 'function' && current !== Function.prototype;
  ) {
    if (schemas[(current as Type<unknown>).name]) {
      return (current as Type<unknown>).name;
    }
    current = Object.getPrototypeOf(current);
  }
  return type.name;
}

function queryParameters(schema: JsonSchema, all: Record<string, JsonSchema>): Parameter[] {
  const required = new Set((schema.required ?? []) as string[]);
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  for (const parent of (schema.allOf ?? []) as JsonSchema[]) {
    const ref = typeof parent.$ref === 'string' ? parent.$ref.replace(SCHEMA_REF, '') : '';
    Object.assign(properties, all[ref]?.properties ?? {});
  }
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

function dedupe(parameters: Parameter[]): Parameter[] {
  const seen = new Set<string>();
  return parameters.filter((parameter) => {
    const key = `${parameter.in}:${parameter.name}`;
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
}

// A declared error without content is a problem (D12).
function declaredResponses(responses: Operation['responses']): Record<string, object> {
  return Object.fromEntries(
    Object.entries(responses ?? {}).map(([status, response]) => {
      const { description, content } = response as { description?: string; content?: object };
      const problem = Number(status) >= 400 ? problemContent() : undefined;
      return [
        status,
        {
          description: description || 'Success',
          ...((content ?? problem) ? { content: content ?? problem } : {}),
        },
      ];
    }),
  );
}

function referencedSchemas(
  roots: Set<string>,
  all: Record<string, JsonSchema>,
): Record<string, JsonSchema> {
  const kept: Record<string, JsonSchema> = {};
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (kept[name] || !all[name]) {
      continue;
    }
    kept[name] = all[name];
    for (const [, referenced] of JSON.stringify(all[name]).matchAll(REF_PATTERN)) {
      pending.push(referenced);
    }
  }
  return kept;
}

const REF_PATTERN = /"#\/components\/schemas\/(\w+)"/g;

function handlersById(app: INestApplication): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | undefined;
      if (!controller) {
        continue;
      }
      let proto: object | null = (controller as { prototype: object }).prototype;
      while (proto && proto !== Object.prototype) {
        for (const method of Object.getOwnPropertyNames(proto)) {
          const key = `${controller.name}_${method}`;
          if (method !== 'constructor' && !handlers.has(key)) {
            handlers.set(key, { controller, method });
          }
        }
        proto = Object.getPrototypeOf(proto) as object | null;
      }
    }
  }
  return handlers;
}
