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

/** D61: handed on, so the path answers a JSON-RPC parse error as its official server does. */
export class UnreadableBody {
  constructor(readonly reason: string) {}
}

/** D12, D61: fastify's parser kept (prototype poisoning still refused). */
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
