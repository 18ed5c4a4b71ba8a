import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

export interface CatalogueRoute {
  method: string;
  url: string;
}

/**
 * Records every route an app registers (call it from `configureFastify`, before Nest adds its
 * routes), so a test that walks the list covers routes added later without being edited.
 */
export function catalogueRoutes(fastify: FastifyInstance): CatalogueRoute[] {
  const routes: CatalogueRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== 'OPTIONS') {
        routes.push({ method, url: route.url });
      }
    }
  });
  return routes;
}

/** A concrete path for a route pattern: every parameter a fresh UUID, a wildcard a literal segment. */
export function probePath(url: string): string {
  return url.replace(/:[A-Za-z0-9_]+/g, () => randomUUID()).replace(/\*$/, 'probe');
}
