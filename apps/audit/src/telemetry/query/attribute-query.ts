import { FastifyInstance } from 'fastify';

const LIST_PATHS = ['/audit/v1/telemetry/spans', '/audit/v1/telemetry/logs'];
const PREFIX = 'attr.';
const REGISTERED = Symbol.for('agp:telemetry-attribute-query');

// Before validation they become the documented repeatable `attr=<key>=<value>` (A26), so the global
// pipe still refuses every other unknown parameter (D54).
export function registerAttributeQuery(fastify: FastifyInstance): void {
  const marked = fastify as unknown as Record<symbol, boolean>;
  if (marked[REGISTERED]) {
    return;
  }
  marked[REGISTERED] = true;
  fastify.addHook('preValidation', (request, _reply, done) => {
    const path = request.url.split('?')[0] ?? '';
    if (request.method === 'GET' && LIST_PATHS.includes(path)) {
      const query = request.query as Record<string, unknown>;
      const pairs: unknown[] = query.attr === undefined ? [] : [query.attr].flat();
      for (const [name, value] of Object.entries(query)) {
        if (name.startsWith(PREFIX) && name.length > PREFIX.length) {
          for (const one of [value].flat()) {
            pairs.push(`${name.slice(PREFIX.length)}=${String(one)}`);
          }
          delete query[name];
        }
      }
      if (pairs.length > 0) {
        query.attr = pairs;
      }
    }
    done();
  });
}
