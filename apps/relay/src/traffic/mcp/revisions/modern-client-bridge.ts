import { Injectable } from '@nestjs/common';

import { SseWriter } from '../../pipeline/sse-writer';
import { REFUSALS } from '../../pipeline/refusal-codes';
import { JsonRpcMessage, kindOf, rpcRefusal } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { McpHops } from '../mcp-hops';
import { answerJudged, translatedStream, writeJudged } from './judged-out';
import { AskedFor } from '../mcp-messages';
import { failureOf } from '../mcp-upstream';
import { inputAnswersOf, inputKeyOf, inputRequiredOf, withoutInputFields } from './input-replay';
import { LegacySession, closeLegacySession, openLegacySession } from './legacy-session';
import { McpListenBridge } from './listen-bridge';
import { McpServerEras, readAnswer } from './server-eras';
import { parseEventStream } from './upstream-events';
import { PaidSent, sendPaid } from './paid-send';
import { PaidCall } from '../../payments/paid-call';
import {
  META_SERVER_INFO,
  MODERN_REVISION,
  envelopeOf,
  objectOr,
  withoutEnvelope,
} from './revision-wire';

/**
 * T98, T99: a 2026-07-28 client before a server that speaks only a session revision. Each request
 * gets a session of its own (initialize, the request, DELETE): nothing is kept between requests,
 * so any replica serves the next.
 */
@Injectable()
export class ModernClientBridge {
  constructor(
    private readonly eras: McpServerEras,
    private readonly hops: McpHops,
    private readonly listens: McpListenBridge,
  ) {}

  async forward(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor: AskedFor,
    paid?: PaidCall,
  ): Promise<McpAnswer> {
    if (kindOf(message) !== 'request') {
      // 2026-07-28 defines no client notification over HTTP; there is no session to give it to.
      return { kind: 'empty', status: 202 };
    }
    if (message.method === 'subscriptions/listen') {
      return this.listens.forLegacyServer(call, message, askedFor);
    }
    let session: LegacySession;
    try {
      session = await openLegacySession(this.eras, call, envelopeOf(message));
    } catch (error) {
      return this.failed(call, message, askedFor, error);
    }
    if (message.method === 'server/discover') {
      closeLegacySession(this.eras, call, session);
      return answerJudged(this.hops, call, discoverResultOf(message, session.result), askedFor);
    }
    const abort = new AbortController();
    const sent = withoutEnvelope(withoutInputFields(message));
    let paying: PaidSent;
    try {
      paying = await sendPaid(this.eras, call, session.headers, sent, abort.signal, paid);
    } catch (error) {
      closeLegacySession(this.eras, call, session);
      return this.failed(call, message, askedFor, error);
    }
    if (paying.kind === 'required') {
      closeLegacySession(this.eras, call, session);
      return paying.answer;
    }
    const { answer, headers: x402 } = paying;
    const type = String(answer.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('text/event-stream')) {
      const reply = await readAnswer(answer).catch(() => undefined);
      closeLegacySession(this.eras, call, session);
      if (!reply) {
        return this.failed(call, message, askedFor, new Error(`HTTP ${answer.statusCode}`));
      }
      return {
        ...(await answerJudged(this.hops, call, completed(reply, message), askedFor)),
        headers: x402,
      };
    }
    const answers = inputAnswersOf(message);
    return translatedStream(
      abort,
      async (writer) => {
        try {
          await this.relayCall(call, message, askedFor, session, answer.body, answers, writer);
        } catch (error) {
          if (!abort.signal.aborted) {
            const why = failureOf(error, call.route.server).message;
            await writer.message(rpcRefusal(message.id, REFUSALS.streamIncomplete, {}, why));
          }
        } finally {
          closeLegacySession(this.eras, call, session);
        }
      },
      x402,
    );
  }

  /** The server's stream for one request: its requests answered from the replay, or asked for. */
  private async relayCall(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor: AskedFor,
    session: LegacySession,
    body: AsyncIterable<Buffer | string>,
    answers: Record<string, unknown>,
    writer: SseWriter,
  ): Promise<void> {
    for await (const event of parseEventStream(body)) {
      const kind = kindOf(event);
      if (kind === 'request') {
        const key = inputKeyOf(event);
        if (key in answers) {
          const reply = { jsonrpc: '2.0' as const, id: event.id, result: answers[key] };
          await (await this.eras.send(call, 'POST', session.headers, reply)).body.dump();
          continue;
        }
        await writeJudged(
          this.hops,
          call,
          inputRequiredOf(message.id, event, answers),
          writer,
          askedFor,
        );
        return;
      }
      if (kind === 'notification') {
        await writeJudged(this.hops, call, event, writer);
        continue;
      }
      if (event.id === message.id) {
        await writeJudged(this.hops, call, completed(event, message), writer, askedFor);
        return;
      }
    }
    const why = 'the server closed the stream before answering';
    await writer.message(rpcRefusal(message.id, REFUSALS.streamIncomplete, {}, why));
  }

  private async failed(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor: AskedFor,
    error: unknown,
  ): Promise<McpAnswer> {
    const why = failureOf(error, call.route.server).message;
    return answerJudged(
      this.hops,
      call,
      rpcRefusal(message.id, REFUSALS.upstreamFailed, {}, why),
      askedFor,
    );
  }
}

/** SEP-2549: results a 2026 client may cache, which must say for how long and for whom. */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A 2025 result as 2026-07-28 answers it: `resultType` "complete" (SEP-2322) and, on a cacheable
 * result, `ttlMs` 0 and `cacheScope` "private" (T98: what an agent is shown is its own, filtered
 * by its grant, and a 2025 server said nothing about freshness).
 */
function completed(reply: JsonRpcMessage, request: JsonRpcMessage): JsonRpcMessage {
  if (reply.result === undefined || reply.error !== undefined) {
    return { ...reply, id: request.id };
  }
  const cache = CACHEABLE.has(request.method ?? '') ? { ttlMs: 0, cacheScope: 'private' } : {};
  return {
    ...reply,
    id: request.id,
    result: { resultType: 'complete', ...cache, ...objectOr(reply.result) },
  };
}

/** T98: `server/discover` answered from the server's InitializeResult. */
function discoverResultOf(
  request: JsonRpcMessage,
  initialized: Record<string, unknown>,
): JsonRpcMessage {
  const serverInfo = objectOr(initialized.serverInfo);
  return {
    jsonrpc: '2.0',
    id: request.id,
    result: {
      resultType: 'complete',
      supportedVersions: [MODERN_REVISION],
      capabilities: objectOr(initialized.capabilities),
      ...(typeof initialized.instructions === 'string'
        ? { instructions: initialized.instructions }
        : {}),
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { [META_SERVER_INFO]: serverInfo },
    },
  };
}
