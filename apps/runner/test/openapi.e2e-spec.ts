import { readFileSync } from 'node:fs';

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { Platform, startPlatform } from './auth/platform';

type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { description?: string; security?: unknown[] } & object>>;
};

const VERBS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** fastify's `/relay/v1/agents/:agentId` as OpenAPI writes it, `/relay/v1/agents/{agentId}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * Issue 18 § 1 and § 2 on the multi-process platform: each service describes its routes, the
 * gateway joins them into one valid OpenAPI 3.1 document at /openapi.json and serves Swagger UI at
 * /docs; every route in the code is in the document and nothing else is.
 */
describe('the OpenAPI document (services behind the gateway)', () => {
  let platform: Platform;
  let document: Document;

  beforeAll(async () => {
    platform = await startPlatform();
    const answer = await platform.gateway.inject({ method: 'GET', url: '/openapi.json' });
    expect([answer.statusCode, answer.statusCode === 200 ? '' : answer.body]).toEqual([200, '']);
    document = answer.json();
  });

  afterAll(async () => {
    await platform?.close();
  });

  it('should be a valid OpenAPI 3.1 document', () => {
    // The OpenAPI Initiative's JSON Schema of 3.1 documents, as the validator package ships it.
    const schema = JSON.parse(
      readFileSync(
        require.resolve('@seriousme/openapi-schema-validator/schemas/v3.1/schema.json'),
        'utf8',
      ),
    ) as object;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('media-range', true);
    const validate = ajv.compile(schema);

    expect(validate(document)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('should label the interface v0 while its paths keep the v1 segment (Versioning 1)', () => {
    expect(document.info.version).toBe('v0');
    expect(Object.keys(document.paths)).toContain('/relay/v1/agents');
  });

  it('should describe every route of every service, and nothing else', () => {
    const inCode = new Set<string>();
    for (const service of platform.services) {
      for (const route of service.routes) {
        // fastify answers HEAD for every GET by itself; OpenAPI leaves it implied.
        const isImpliedHead =
          route.method === 'HEAD' &&
          service.routes.some((r) => r.method === 'GET' && r.url === route.url);
        if (route.url !== '/openapi.json' && !isImpliedHead) {
          inCode.add(`${route.method.toLowerCase()} ${openApiPath(route.url)}`);
        }
      }
    }
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const verb of Object.keys(item).filter((key) => VERBS.has(key))) {
        documented.add(`${verb} ${path}`);
      }
    }

    expect([...inCode].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((route) => !inCode.has(route))).toEqual([]);
    expect(documented.size).toBeGreaterThan(100);
  });

  it('should name the permission, the token and the problem+json errors of a route', () => {
    const create = document.paths['/relay/v1/mcp-servers'].post as Record<string, unknown>;

    expect(create['x-required-permission']).toMatch(/^[A-Z_]+:WRITE$/);
    expect(create.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(create.responses as object)).toEqual(
      expect.arrayContaining(['400', '401', '403']),
    );
    expect(JSON.stringify(create.requestBody)).toContain('#/components/schemas/');
    const token = document.paths['/tenant-auth/v1/oauth/token'].post;
    expect(token.security).toEqual([]);
  });

  it('should mark ADMIN_CHANGE as beyond the specification wherever an enum holds it (D42)', () => {
    const holding: Array<Record<string, unknown>> = [];
    const walk = (node: unknown): void => {
      if (node !== null && typeof node === 'object') {
        const schema = node as Record<string, unknown>;
        if (Array.isArray(schema.enum) && schema.enum.includes('ADMIN_CHANGE')) {
          holding.push(schema);
        }
        Object.values(schema).forEach(walk);
      }
    };

    walk(document);

    // The event answers' type at least (list, one event, trace).
    expect(holding.length).toBeGreaterThanOrEqual(1);
    for (const schema of holding) {
      expect(schema['x-beyond-specification']).toEqual({
        ADMIN_CHANGE: expect.stringMatching(/^Beyond the specification \(D42\)/),
      });
      expect(schema.description).toContain('ADMIN_CHANGE: beyond the specification');
    }
  });

  it('should say which protocol each traffic path speaks', () => {
    const traffic = Object.entries(document.paths).filter(([path]) =>
      /^\/relay\/(mcp|a2a|llm|human)\//.test(path),
    );

    expect(traffic.length).toBeGreaterThan(0);
    for (const [path, item] of traffic) {
      for (const verb of Object.keys(item).filter((key) => VERBS.has(key))) {
        expect([path, verb, item[verb].description]).toEqual([
          path,
          verb,
          expect.stringMatching(/https:\/\//),
        ]);
      }
    }
  });

  it('should serve Swagger UI at /docs with its assets', async () => {
    const page = await platform.gateway.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain("url: '/openapi.json'");

    const bundle = await platform.gateway.inject({
      method: 'GET',
      url: '/docs/swagger-ui-bundle.js',
    });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.body.length).toBeGreaterThan(100_000);
  });
});
