import { ServerResponse } from 'node:http';
import { PassThrough, Readable } from 'node:stream';

import { Dispatcher } from 'undici';

import { JsonRpcMessage } from '../mcp/json-rpc';
import { SseWriter } from './sse-writer';
import { StreamAnswer } from './traffic-intake';

/**
 * MK16, MK32: the publisher's side of a marketplace call answers in-process; these make its answer
 * an upstream's HTTP answer, so the installer's side reads and judges it as any server's.
 */

/**
 * MK18: the publisher's decision and review ids stay in the publisher's trail (each message of a
 * batch, each event of a stream).
 */
function crossing(body: unknown): unknown {
  if (Array.isArray(body)) {
    return body.map(crossing);
  }
  const error = (body as { error?: { data?: Record<string, unknown> } } | undefined)?.error;
  if (error?.data && ('decisionId' in error.data || 'hitlRequestId' in error.data)) {
    const { decisionId: _decision, hitlRequestId: _review, ...data } = error.data;
    return { ...(body as object), error: { ...error, data } };
  }
  return body;
}

/** MK18: each message the publisher's side streams crosses as a JSON answer does. */
class CrossingSseWriter extends SseWriter {
  override message(message: JsonRpcMessage, eventId?: string): Promise<void> {
    return super.message(crossing(message) as JsonRpcMessage, eventId);
  }
}

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Dispatcher.ResponseData {
  const bytes = Buffer.from(JSON.stringify(crossing(body)), 'utf8');
  return {
    statusCode: status,
    headers: {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(bytes.length),
    },
    body: bodyOf(Readable.from([bytes])),
  } as unknown as Dispatcher.ResponseData;
}

export function rawResponse(
  status: number,
  body: string,
  headers: Record<string, string>,
): Dispatcher.ResponseData {
  const bytes = Buffer.from(body, 'utf8');
  return {
    statusCode: status,
    headers: { ...headers, 'content-length': String(bytes.length) },
    body: bodyOf(Readable.from([bytes])),
  } as unknown as Dispatcher.ResponseData;
}

/** A bare status (MCP's 202 to a notification, a DELETE's 200). */
export function emptyResponse(
  status: number,
  headers: Record<string, string> = {},
): Dispatcher.ResponseData {
  return {
    statusCode: status,
    headers: { ...headers, 'content-length': '0' },
    body: bodyOf(Readable.from([])),
  } as unknown as Dispatcher.ResponseData;
}

/** A stream's events written by the publisher's side into a pipe the installer's side reads. */
export function streamResponse(
  answer: StreamAnswer,
  headers: Record<string, string>,
  signal: AbortSignal,
): Dispatcher.ResponseData {
  const pipe = new PassThrough();
  const raw = Object.assign(pipe, { writeHead: () => pipe, flushHeaders: () => undefined });
  const stop = (): void => {
    answer.cancel();
    pipe.destroy();
  };
  signal.addEventListener('abort', stop, { once: true });
  void answer
    .run(new CrossingSseWriter(raw as unknown as ServerResponse))
    .catch(() => undefined)
    .finally(() => {
      signal.removeEventListener('abort', stop);
      pipe.end();
    });
  return {
    statusCode: 200,
    headers: { ...headers, 'content-type': 'text/event-stream' },
    body: bodyOf(pipe),
  } as unknown as Dispatcher.ResponseData;
}

/** What the exchanges read of undici's body: iteration, `text()`, `dump()`, `destroy()`. */
function bodyOf(stream: Readable): Readable {
  return Object.assign(stream, {
    text: async (): Promise<string> => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    dump: async (): Promise<void> => {
      stream.destroy();
    },
  });
}
