import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

import { HttpProblem } from '@agp/http';
import { FastifyInstance, FastifyRequest } from 'fastify';

/** D54: an export request may hold 4 MiB once decompressed; above is a 413. */
export const OTLP_BODY_LIMIT = 4 * 1024 * 1024;

/** The ingest paths (D46): `{base_url}/audit/v1/telemetry/v1/traces` and `…/v1/logs`. */
export const OTLP_PATH_PREFIX = '/audit/v1/telemetry/v1/';

/** The content type every OTLP request is parsed as, whatever it said (A21). */
const OTLP_RAW = 'application/x-agp-otlp-raw';
const ORIGINAL_TYPE = Symbol.for('agp:otlp-content-type');

export type OtlpEncoding = 'protobuf' | 'json';

// An export request's bytes, decompressed, or the problem that stopped reading them. A class with a
// private field, so the input guard (F23) does not walk the bytes as an object's members.
export class OtlpBody {
  readonly #bytes: Buffer;

  constructor(
    bytes: Buffer,
    readonly encoding: OtlpEncoding | undefined,
    readonly problem?: HttpProblem,
  ) {
    this.#bytes = bytes;
  }

  get bytes(): Buffer {
    return this.#bytes;
  }
}

export function encodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') {
    return 'protobuf';
  }
  return type === 'application/json' ? 'json' : undefined;
}

function tooLarge(): HttpProblem {
  return new HttpProblem(
    413,
    'payload-too-large',
    `the export request is larger than ${OTLP_BODY_LIMIT} bytes once decompressed`,
  );
}

/** Reads the body whole (gzip undone), never holding more than the limit. */
async function readBody(request: FastifyRequest, payload: Readable): Promise<OtlpBody> {
  const encoding = encodingOf((request.raw as unknown as Record<symbol, string>)[ORIGINAL_TYPE]);
  const contentEncoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (contentEncoding !== 'gzip' && contentEncoding !== 'identity') {
    payload.resume();
    const detail = `content-encoding ${contentEncoding} is not supported (gzip or none)`;
    return new OtlpBody(
      Buffer.alloc(0),
      encoding,
      new HttpProblem(415, 'unsupported-media-type', detail),
    );
  }
  const source = contentEncoding === 'gzip' ? payload.pipe(createGunzip()) : payload;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > OTLP_BODY_LIMIT) {
        source.destroy();
        payload.resume();
        return new OtlpBody(Buffer.alloc(0), encoding, tooLarge());
      }
      chunks.push(chunk);
    }
  } catch {
    payload.resume();
    const problem = new HttpProblem(400, 'malformed-body', 'the gzip body cannot be decompressed');
    return new OtlpBody(Buffer.alloc(0), encoding, problem);
  }
  return new OtlpBody(Buffer.concat(chunks, size), encoding);
}

/** The ingest paths take any content type and content encoding as raw bytes (A21). */
export function registerOtlpBodies(fastify: FastifyInstance): void {
  if (fastify.hasContentTypeParser(OTLP_RAW)) {
    return;
  }
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'POST' && request.url.startsWith(OTLP_PATH_PREFIX)) {
      (request.raw as unknown as Record<symbol, unknown>)[ORIGINAL_TYPE] =
        request.headers['content-type'];
      request.headers['content-type'] = OTLP_RAW;
    }
    done();
  });
  fastify.addContentTypeParser(OTLP_RAW, (request, payload, done) => {
    readBody(request, payload).then((body) => done(null, body), done);
  });
}
