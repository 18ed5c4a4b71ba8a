import { FastifyInstance } from 'fastify';

/** The traffic paths that speak JSON-RPC, whose bodies the relay itself answers about (D61). */
const JSON_RPC_PATHS = ['/relay/mcp/', '/relay/a2a/', '/relay/human/'];
/** Paths whose signature covers the raw body (channels.md CH2, CH7): the text is kept. */
const SIGNED_BODY_PATHS = ['/relay/channels/'];
const RAW_BODY = Symbol('agp:raw-body');

/** The body as it came, on a signed path (empty elsewhere, or without a JSON body). */
export function rawBodyOf(request: object): string {
  return (request as { [RAW_BODY]?: string })[RAW_BODY] ?? '';
}

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
    if (SIGNED_BODY_PATHS.some((path) => request.url.startsWith(path))) {
      (request as { [RAW_BODY]?: string })[RAW_BODY] = text;
    }
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
