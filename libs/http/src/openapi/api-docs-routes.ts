import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { FastifyInstance } from 'fastify';

import { CORRELATION_HEADER } from '../correlation-id';
import { PROBLEM_CONTENT_TYPE, ProblemDetails, problemType, statusTitle } from '../problem-details';

const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'];
const TYPES: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
};

/** `GET /openapi.json` (the document, built on first request) and, with `ui`, `GET /docs` (D1). */
export function registerApiDocsRoutes(
  fastify: FastifyInstance,
  document: () => Promise<object> | object,
  options: { ui: boolean },
): void {
  let cached: Promise<string> | undefined;
  fastify.get('/openapi.json', async (request, reply) => {
    cached ??= Promise.resolve(document()).then((built) => JSON.stringify(built));
    try {
      return await reply.type('application/json; charset=utf-8').send(await cached);
    } catch (error) {
      // Not cached: the next request tries again (a service of the gateway may be starting).
      cached = undefined;
      const problem: ProblemDetails = {
        type: problemType('document-unavailable'),
        title: statusTitle(503),
        status: 503,
        detail: `the OpenAPI document could not be assembled: ${(error as Error).message}`,
        instance: request.url,
        correlationId: String(reply.getHeader(CORRELATION_HEADER) ?? ''),
      };
      return reply.code(503).type(PROBLEM_CONTENT_TYPE).send(problem);
    }
  });
  if (!options.ui) {
    return;
  }
  const dist = swaggerUiDist();
  fastify.get('/docs', (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  for (const asset of ASSETS) {
    const content = readFileSync(join(dist, asset));
    fastify.get(`/docs/${asset}`, (_request, reply) =>
      reply
        .type(TYPES[asset.split('.').pop() ?? ''] ?? 'application/octet-stream')
        .header('cache-control', 'public, max-age=86400')
        .send(content),
    );
  }
}

function swaggerUiDist(): string {
  return dirname(createRequire(__filename).resolve('swagger-ui-dist/package.json'));
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Agent Governance Platform API</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/swagger-ui-standalone-preset.js"></script>
    <script>
      window.ui = SwaggerUIBundle({
        url: '/openapi.json',
        dom_id: '#ui',
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: 'StandaloneLayout',
        persistAuthorization: true,
      });
    </script>
  </body>
</html>
`;
