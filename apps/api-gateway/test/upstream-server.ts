import { createHash } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

import Fastify, { FastifyInstance } from 'fastify';

/**
 * A stand-in for a service behind the gateway: it echoes what it received and can stream a large
 * body or answer slowly. It is the thing proxied, not a mock of PostgreSQL or NATS.
 */
export async function startUpstream(): Promise<{
  url: string;
  server: FastifyInstance;
  /** Resolves when a caller of `/relay/mcp/hold` has gone away before its answer. */
  holdAbandoned: Promise<void>;
}> {
  const server = Fastify();
  let abandoned: () => void = () => undefined;
  const holdAbandoned = new Promise<void>((resolve) => {
    abandoned = resolve;
  });
  // A traffic call held for a person (D34): it answers only when its caller is still there.
  server.post('/relay/mcp/hold', (request, reply) => {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) {
        abandoned();
      }
    });
  });
  // Every body a stream, JSON included: what arrived is hashed as bytes.
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  server.get('/audit/v1/echo', async (request, reply) => {
    void reply.status(207).header('x-upstream', 'audit').header('set-cookie', ['a=1', 'b=2']);
    return { url: request.url, headers: request.headers };
  });

  server.post('/relay/v1/digest', (request) => digestOf(request.body));
  server.post('/audit/v1/telemetry/v1/digest', (request) => digestOf(request.body));
  server.post('/audit/v1/digest', (request) => digestOf(request.body));

  server.post('/relay/mcp/digest', async (request) => {
    const { bytes, sha256 } = await digestOf(request.body);
    return {
      bytes,
      sha256,
      contentType: request.headers['content-type'],
      contentLength: request.headers['content-length'],
    };
  });

  server.get('/relay/v1/large', async (request, reply) => {
    const size = Number((request.query as { bytes?: string }).bytes ?? 0);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    async function* body(): AsyncGenerator<Buffer> {
      for (let sent = 0; sent < size; sent += chunk.length) {
        yield chunk.subarray(0, Math.min(chunk.length, size - sent));
      }
    }
    void reply.header('content-type', 'application/octet-stream');
    return reply.send(Readable.from(body()));
  });

  server.get('/tenant-auth/v1/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { late: true };
  });

  await server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, holdAbandoned };
}

/** The size and SHA-256 of a streamed body, as the upstream received it. */
async function digestOf(body: unknown): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}
