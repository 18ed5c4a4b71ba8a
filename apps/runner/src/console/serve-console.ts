import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import fastifyStatic from '@fastify/static';
import { FastifyInstance } from 'fastify';

// Never the console's page, so an MCP client's discovery gets its 404 (D1, D43, RFC 8414/9728).
const API_PREFIXES = ['/tenant-auth/', '/relay/', '/audit/', '/health/', '/.well-known/'];

/** I15: one file shared with the console's nginx image; no 'unsafe-inline' scripts. */
export const SECURITY_HEADERS = JSON.parse(
  readFileSync(require.resolve('@agp/console/security-headers.json'), 'utf8'),
) as Record<string, string>;

export function consoleDirectory(configured: string | undefined): string | undefined {
  if (configured) {
    return configured;
  }
  try {
    const dir = join(dirname(require.resolve('@agp/console/package.json')), 'dist');
    return existsSync(join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** index.html for any other GET outside the API, so the SPA's routes survive a reload (D2). */
export function serveConsole(fastify: FastifyInstance, root: string): void {
  void fastify.register(fastifyStatic, { root, serve: false });
  fastify.get('/*', (request, reply) => {
    const path = request.url.split('?')[0];
    if (API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      return reply.callNotFound();
    }
    void reply.headers(SECURITY_HEADERS);
    const file = path.replace(/^\/+/, '');
    if (file.startsWith('assets/') && !file.includes('..') && existsSync(join(root, file))) {
      // Vite names assets by their content: they never change under one name.
      return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(file);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
