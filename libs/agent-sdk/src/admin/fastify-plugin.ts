import { correlationIdOf, runWithCorrelationId } from '../http/correlation';
import { ADMIN_MAX_BODY_BYTES, AdminSurface } from './admin-surface';

// Structural types for the few Fastify calls the plugin makes, so the library does not depend on
// Fastify (it is the application's).
interface FastifyRequestLike {
  method: string;
  url: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
}
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  send(payload: string): unknown;
}
interface FastifyInstanceLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (
      request: unknown,
      body: Buffer,
      done: (error: Error | null, body?: Buffer) => void,
    ) => void,
  ): void;
  route(options: {
    method: string[];
    url: string;
    handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown>;
  }): unknown;
}

export function adminFastifyPlugin(
  surface: AdminSurface,
): (instance: FastifyInstanceLike, options: { prefix?: string }) => Promise<void> {
  const plugin = async (
    instance: FastifyInstanceLike,
    options: { prefix?: string },
  ): Promise<void> => {
    const prefix = (options.prefix ?? '').replace(/\/+$/, '');
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: ADMIN_MAX_BODY_BYTES },
      (_request, body, done) => done(null, body),
    );
    instance.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: async (request, reply) => {
        const path = new URL(request.url, 'http://agent').pathname.slice(prefix.length) || '/';
        const answer = await runWithCorrelationId(correlationIdOf(request.headers), () =>
          surface.handle({
            method: request.method,
            path,
            headers: request.headers,
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          }),
        );
        return reply
          .code(answer.status)
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify(answer.body));
      },
    });
  };
  return plugin;
}
