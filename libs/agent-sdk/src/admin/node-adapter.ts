import { IncomingMessage, ServerResponse } from 'node:http';

import { correlationIdOf, runWithCorrelationId } from '../http/correlation';
import { ADMIN_MAX_BODY_BYTES, AdminResponse, AdminSurface } from './admin-surface';

export const ADMIN_MOUNT_PATH = '/admin';

type MaybeParsed = IncomingMessage & { body?: unknown; originalUrl?: string };

export class BodyTooLargeError extends Error {}

export async function readRawBody(request: MaybeParsed): Promise<Buffer> {
  if (Buffer.isBuffer(request.body)) {
    return request.body;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > ADMIN_MAX_BODY_BYTES) {
      throw new BodyTooLargeError();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function writeAdminResponse(response: ServerResponse, answer: AdminResponse): void {
  const body = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/**
 * A Node `http` request listener for the surface, or an Express/Connect middleware (same shape):
 * requests under `mountPath` are answered, others go to `next` (404 without one).
 */
export function adminRequestListener(
  surface: AdminSurface,
  mountPath: string = ADMIN_MOUNT_PATH,
): (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void {
  const prefix = mountPath.replace(/\/+$/, '');
  return (request, response, next) => {
    const url = new URL((request as MaybeParsed).originalUrl ?? request.url ?? '/', 'http://agent');
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
      if (next) {
        next();
      } else {
        writeAdminResponse(response, {
          status: 404,
          body: { status: 'error', detail: 'not found' },
        });
      }
      return;
    }
    const serve = async (): Promise<void> => {
      let rawBody: Buffer;
      try {
        rawBody = await readRawBody(request);
      } catch (cause) {
        if (cause instanceof BodyTooLargeError) {
          writeAdminResponse(response, {
            status: 413,
            body: { status: 'error', detail: 'body too large' },
          });
          return;
        }
        throw cause;
      }
      const answer = await runWithCorrelationId(correlationIdOf(request.headers), () =>
        surface.handle({
          method: request.method ?? 'GET',
          path: url.pathname.slice(prefix.length) || '/',
          headers: request.headers,
          rawBody,
        }),
      );
      writeAdminResponse(response, answer);
    };
    serve().catch((cause: unknown) => {
      if (next) {
        next(cause);
      } else if (!response.headersSent) {
        writeAdminResponse(response, {
          status: 500,
          body: { status: 'error', detail: 'internal error' },
        });
      }
    });
  };
}
