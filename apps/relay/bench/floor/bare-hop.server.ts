import Fastify from 'fastify';
import { Pool } from 'undici';

/** Request and answer headers a proxy never forwards (RFC 9110 § 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host']);

function forwardable(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) {
      kept[name] = value;
    }
  }
  return kept;
}

/** `node bare-hop.server.js <upstream origin> <port>`: see bare-hop.ts. */
async function main(): Promise<void> {
  const [upstream, port] = process.argv.slice(2);
  const pool = new Pool(upstream, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.get('/__ready', async () => 'ready');
  app.all('/*', async (request, reply) => {
    const answer = await pool.request({
      method: request.method,
      path: request.url,
      headers: forwardable(request.headers),
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.raw,
    });
    void reply.code(answer.statusCode).headers(forwardable(answer.headers));
    return reply.send(answer.body);
  });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
}

void main();
