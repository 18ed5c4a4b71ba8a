import { Injectable } from '@nestjs/common';

import { REFUSALS } from '../../pipeline/refusal-codes';
import { JsonRpcMessage, kindOf, rpcRefusal } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { McpHops } from '../mcp-hops';
import { answerJudged, translatedStream, writeJudged } from './judged-out';
import { AskedFor } from '../mcp-messages';
import { failureOf } from '../mcp-upstream';
import { HeldLegacyCalls } from './held-legacy-calls';
import { isInputRetry } from './input-requests';
import { readTurn } from './legacy-call-turns';
import { completed, discoverResultOf } from './modern-results';
import {
  LegacySession,
  closeLegacySession,
  openLegacySession,
  sendJudgedInSession,
} from './legacy-session';
import { McpListenBridge } from './listen-bridge';
import { McpServerEras, readAnswer } from './server-eras';
import { parseEventStream } from './upstream-events';
import { PaidSent, sendPaid } from './paid-send';
import { PaidCall } from '../../payments/paid-call';
import { envelopeOf, isUnaskedLog, objectOr, withoutEnvelope } from './revision-wire';

/**
 * T98, T99, T102: a 2026-07-28 client before a server that speaks only a session revision. Each request
 * gets a session of its own (initialize, the request, DELETE): nothing is kept between requests,
 * so any replica serves the next.
 */
@Injectable()
export class ModernClientBridge {
  constructor(
    private readonly eras: McpServerEras,
    private readonly hops: McpHops,
    private readonly listens: McpListenBridge,
    private readonly held: HeldLegacyCalls,
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
    if (isInputRetry(message)) {
      // T102: a retry resumes the call the relay holds; it is never replayed.
      return this.held.resume(call, message, askedFor);
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
    try {
      await this.carryLogLevel(call, session, envelopeOf(message).logLevel);
    } catch (error) {
      closeLegacySession(this.eras, call, session);
      return this.failed(call, message, askedFor, error);
    }
    // The server's side ends with the client's, unless the call is held for a retry (T102).
    const upstream = new AbortController();
    const client = new AbortController();
    let isHeld = false;
    client.signal.addEventListener('abort', () => isHeld || upstream.abort());
    const sent = withoutEnvelope(message);
    let paying: PaidSent;
    try {
      // PY19: the agent's judged payment goes with it; held for up to ten minutes while a person
      // answers (T102), readTurn bounding silence instead.
      paying = await sendPaid(this.eras, call, session.headers, sent, upstream.signal, paid, {
        isListening: true,
      });
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
    const events = parseEventStream(answer.body)[Symbol.asyncIterator]();
    return translatedStream(
      client,
      async (writer) => {
        try {
          const stop = await readTurn(
            events,
            message.id,
            async (note) => {
              if (!isUnaskedLog(note, message)) {
                await writeJudged(this.hops, call, note, writer);
              }
            },
            { ms: call.route.server.timeoutMs, abort: upstream },
          );
          if (stop.kind === 'input') {
            const held = { call, request: message, session, events, upstream };
            // T109: held only once the client was asked; otherwise (or if hold() threw) it ends here.
            isHeld = await this.held.hold(held, stop.request, writer, askedFor);
          } else if (stop.kind === 'final') {
            await writeJudged(this.hops, call, completed(stop.response, message), writer, askedFor);
          } else {
            const why = 'the server closed the stream before answering';
            await writer.message(rpcRefusal(message.id, REFUSALS.streamIncomplete, {}, why));
          }
        } catch (error) {
          if (!client.signal.aborted) {
            const why = failureOf(error, call.route.server).message;
            await writer.message(rpcRefusal(message.id, REFUSALS.streamIncomplete, {}, why));
          }
        } finally {
          if (!isHeld) {
            upstream.abort();
            closeLegacySession(this.eras, call, session);
          }
        }
      },
      x402,
    );
  }

  /**
   * T104: a 2026 request's `_meta` log level becomes `logging/setLevel` in its session (when the
   * server logs at all), judged as the agent's request it translates; the answer is a hop too.
   */
  private async carryLogLevel(
    call: McpCall,
    session: LegacySession,
    level: string | undefined,
  ): Promise<void> {
    if (level === undefined || !objectOr(session.result.capabilities).logging) {
      return;
    }
    await sendJudgedInSession(this.eras, this.hops, call, session, 'logging/setLevel', { level });
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
