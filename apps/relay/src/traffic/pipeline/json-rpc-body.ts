import { FastifyInstance } from 'fastify';

/** The traffic paths that speak JSON-RPC, whose bodies the relay itself answers about (D61). */
const JSON_RPC_PATHS = ['/relay/mcp/', '/relay/a2a/', '/relay/human/'];

/**
 * A POST body on a JSON-RPC path that is not JSON. D61: the path answers it as its protocol's
 * official server does (a JSON-RPC parse error), so the parser hands it on instead of failing the
 * request with problem+json before any handler runs.
 */
export class UnreadableBody {
  constructor(readonly reason: string) {}
}

/**
 * Wraps fastify's own JSON parser (prototype poisoning still refused): on the JSON-RPC paths a body
 * it cannot read becomes an {@link UnreadableBody}; everywhere else it fails as before (D12).
 */
export function keepUnreadableJsonRpcBodies(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // fastify's own parser answers through the callback (its type also allows a promise).
    void parseJson(request, text, (error, value) => {
      if (error && JSON_RPC_PATHS.some((path) => request.url.startsWith(path))) {
        done(null, new UnreadableBody(error.message));
        return;
      }
      done(error, value);
    });
  });
}
