import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import fastifyStatic from '@fastify/static';
import { FastifyInstance } from 'fastify';

/**
 * The API prefixes the services own (D1), and the well-known URIs (D43: metadata where RFC 8414
 * and RFC 9728 put it, a 404 for any other, so an MCP client's discovery moves on): never
 * answered with the console's page.
 */
const API_PREFIXES = ['/tenant-auth/', '/relay/', '/audit/', '/health/', '/.well-known/'];

/**
 * identity.md I15 and issue 16: the console's own headers, one file for every server of it (this
 * one and the console's nginx image): scripts only from this origin (no 'unsafe-inline'); Mantine
 * sets style attributes, so styles allow them; calls go to this origin.
 */
export const SECURITY_HEADERS = JSON.parse(
  readFileSync(require.resolve('@agp/console/security-headers.json'), 'utf8'),
) as Record<string, string>;

/** Where the console's build is: CONSOLE_DIR, or @agp/console's dist/ beside this package. */
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

/**
 * Serves the console at `/` (D2's embedded default): its files, and index.html for every other
 * GET outside the API prefixes, so the single-page application's own routes load on reload.
 */
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
