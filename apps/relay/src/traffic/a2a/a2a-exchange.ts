import { Injectable } from '@nestjs/common';
import { EventSourceMessage, createParser } from 'eventsource-parser';
import { Dispatcher } from 'undici';

import { upstreamCredentialHeader } from '../../mcp-servers/upstream-credential';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { OpenedCredentials } from '../pipeline/opened-credentials';
import { StreamWatch } from '../pipeline/stream-watch';
import { JsonRpcId, JsonRpcMessage, invalidMessage, kindOf, rpcRefusal } from '../mcp/json-rpc';
import { StreamEnding } from '../pipeline/refusal-answers';
import { REFUSALS, Refusal } from '../pipeline/refusal-codes';
import { SseWriter } from '../pipeline/sse-writer';
import { A2aCall, a2aHopOf, a2aLabel } from './a2a-call';
import { A2aHops } from './a2a-hops';
import { isFinalEvent, isStreamingMethod } from './a2a-messages';
import {
  A2aUpstream,
  A2aUpstreamFailure,
  A2aUpstreamRequest,
  MAX_A2A_MESSAGE_BYTES,
  a2aFailureOf,
  readLimited,
} from './a2a-upstream';
import { AgentCardJson, endpointOf } from './agent-card';
import { InstalledAgents } from './installed-agents';
import { PaidCall } from '../payments/paid-call';

export type A2aAnswer =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  /** payments.md PY2: an x402 402, handed to the paying agent as the payee wrote it. */
  | { kind: 'raw'; status: number; body: string; headers: Record<string, string> }
  | {
      kind: 'stream';
      run(writer: SseWriter): Promise<void>;
      cancel(): void;
    };

/** T42: `seen` is judged and kept in the trail; `delivered` is what the caller gets. */
export interface A2aAnswerView {
  seen(answer: JsonRpcMessage): Promise<JsonRpcMessage>;
  delivered(judged: JsonRpcMessage): JsonRpcMessage;
}

export interface AskedFor {
  method: string;
  resendDigest: string;
}

/** How often an idle stream gets a comment line (under the gateway's idle timeout, T15). */
const KEEP_ALIVE_MS = 15_000;

class GarbledAnswer extends Error {}

/** D33, D37, T35: each target fault is a JSON-RPC error audited ERROR; no caller waits for ever. */
@Injectable()
export class A2aExchange {
  constructor(
    private readonly upstream: A2aUpstream,
    private readonly hops: A2aHops,
    private readonly pipeline: HopPipeline,
    private readonly watch: StreamWatch,
    private readonly credentials: OpenedCredentials,
    private readonly installed: InstalledAgents,
  ) {}

  async forward(
    call: A2aCall,
    card: AgentCardJson,
    message: JsonRpcMessage,
    askedFor: AskedFor,
    view?: A2aAnswerView,
    paid?: PaidCall,
  ): Promise<A2aAnswer> {
    const id = message.id!;
    const abort = new AbortController();
    call.signal?.addEventListener('abort', () => abort.abort(), { once: true });
    let answer: Dispatcher.ResponseData;
    try {
      // MK16: an installed entry's upstream is its publisher's side, reached in-process.
      answer = call.route.target.installation
        ? await this.installed.send(call, message, abort.signal, paid?.upstreamHeader().payment)
        : await this.upstream.send({
            ...this.requestOf(call, card, message, abort.signal),
            ...paid?.upstreamHeader(),
          });
    } catch (error) {
      const failure = a2aFailureOf(error, a2aLabel(call), this.timeoutOf(call));
      await paid?.unanswered(failure.message);
      return this.failed(call, id, askedFor, failure);
    }
    const type = contentTypeOf(answer);
    // D60: the x402 headers go back beside the answer; a forwarded payment's outcome is recorded.
    const x402 = (await paid?.answered(answer.statusCode, answer.headers)) ?? {};
    if (answer.statusCode === 402) {
      const body = await readLimited(answer, MAX_A2A_MESSAGE_BYTES, a2aLabel(call)).catch(() => '');
      const required = await paid?.required(answer.headers, body);
      if (required) {
        return { kind: 'raw', status: 402, body, headers: required };
      }
      const failure = `${a2aLabel(call)} answered HTTP 402 without x402 payment requirements`;
      return this.failed(call, id, askedFor, new A2aUpstreamFailure(502, failure));
    }
    if (answer.statusCode === 200 && type === 'text/event-stream') {
      return this.stream(call, answer, abort, id, askedFor, x402);
    }
    try {
      if (type !== 'application/json') {
        await answer.body.dump();
        throw new GarbledAnswer(
          `answered HTTP ${answer.statusCode} (${type || 'no content type'}) without a JSON-RPC answer`,
        );
      }
      const reply = parseAnswer(
        await readLimited(answer, MAX_A2A_MESSAGE_BYTES, a2aLabel(call)),
        id,
      );
      const judged = await this.hops.judgeAnswer(
        call,
        view ? await view.seen(reply) : reply,
        askedFor,
      );
      await judged.audited;
      let body: JsonRpcMessage = judged.kind === 'refused' ? judged.answer : judged.message;
      if (judged.kind === 'forward' && view) {
        body = view.delivered(judged.message);
      }
      return { kind: 'json', status: answer.statusCode, body, headers: x402 };
    } catch (error) {
      const failure =
        error instanceof GarbledAnswer
          ? new A2aUpstreamFailure(502, `${a2aLabel(call)} ${error.message}`)
          : a2aFailureOf(error, a2aLabel(call), this.timeoutOf(call));
      return this.failed(call, id, askedFor, failure);
    }
  }

  /** The answer in the target's place: audited as ERROR (the monitors count it), then sent. */
  async failed(
    call: A2aCall,
    id: JsonRpcId,
    askedFor: AskedFor,
    failure: A2aUpstreamFailure,
  ): Promise<A2aAnswer> {
    const error = await this.auditedError(
      call,
      id,
      askedFor,
      REFUSALS.upstreamFailed,
      failure.message,
      {
        httpStatus: failure.status,
      },
    );
    return { kind: 'json', status: failure.status, body: error };
  }

  private stream(
    call: A2aCall,
    answer: Dispatcher.ResponseData,
    abort: AbortController,
    id: JsonRpcId,
    askedFor: AskedFor,
    x402: Record<string, string>,
  ): A2aAnswer {
    return {
      kind: 'stream',
      cancel: () => abort.abort(),
      run: async (writer) => {
        writer.open({ ...call.toPerson?.headers(), ...x402 });
        let stoppedFor: StreamEnding | undefined;
        const stopOn = (ending: StreamEnding): void => {
          stoppedFor ??= ending;
          abort.abort();
        };
        const unwatch = this.watch.watch(call.admission, stopOn);
        const keepAlive = setInterval(() => void writer.keepAlive(), KEEP_ALIVE_MS);
        let ending: StreamEnding | undefined;
        let isDone = false;
        try {
          isDone = await this.relayEvents(call, answer.body, writer, id, askedFor, stopOn);
        } catch (error) {
          if (!abort.signal.aborted) {
            const why =
              error instanceof GarbledAnswer
                ? `${a2aLabel(call)} ${error.message}`
                : a2aFailureOf(error, a2aLabel(call), this.timeoutOf(call)).message;
            ending = { refusal: REFUSALS.streamIncomplete, reason: why };
          }
        } finally {
          unwatch();
          clearInterval(keepAlive);
        }
        ending = stoppedFor ?? ending;
        if (!isDone && (ending || !abort.signal.aborted) && !writer.isClosed) {
          ending ??= {
            refusal: REFUSALS.streamIncomplete,
            reason: `${a2aLabel(call)} closed the stream before the task ended`,
          };
          const error = await this.auditedError(call, id, askedFor, ending.refusal, ending.reason);
          await writer.message(error);
        }
        abort.abort();
        writer.end();
      },
    };
  }

  /** Each event judged before it is written; a slow caller slows the read. */
  private async relayEvents(
    call: A2aCall,
    body: AsyncIterable<Buffer | string>,
    writer: SseWriter,
    id: JsonRpcId,
    askedFor: AskedFor,
    stopOn: (ending: StreamEnding) => void,
  ): Promise<boolean> {
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    const decoder = new TextDecoder();
    let buffered = 0;
    for await (const chunk of body) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      buffered += text.length;
      if (buffered > MAX_A2A_MESSAGE_BYTES) {
        throw new GarbledAnswer(`sent an event larger than ${MAX_A2A_MESSAGE_BYTES} bytes`);
      }
      parser.feed(text);
      while (events.length > 0) {
        buffered = 0;
        const event = events.shift()!;
        if (event.data.trim().length === 0) {
          continue;
        }
        const reply = parseAnswer(event.data, id);
        const stop = await this.watch.stopReason(call.admission);
        if (stop) {
          await this.pipeline.refuse(a2aHopOf(call, 'RESPONSE', reply, askedFor.method), {
            type: 'COMMUNICATION_AUDIT',
            action: 'BLOCK',
            reason: stop,
          });
          stopOn({ refusal: REFUSALS.killSwitch, reason: stop });
          return false;
        }
        const judged = await this.hops.judgeAnswer(call, reply, askedFor);
        await judged.audited;
        if (judged.kind === 'refused') {
          // D33: a blocked event never reaches the caller; its error ends the stream.
          await writer.message(judged.answer, event.id);
          return true;
        }
        const delivered = call.toPerson
          ? await call.toPerson.streamed(judged.message)
          : judged.message;
        await writer.message(delivered, event.id);
        if (isFinalEvent(reply)) {
          return true;
        }
      }
      if (writer.isClosed) {
        return true;
      }
    }
    return false;
  }

  private async auditedError(
    call: A2aCall,
    id: JsonRpcId,
    askedFor: AskedFor,
    refusal: Refusal,
    reason: string,
    details: Record<string, unknown> = {},
  ): Promise<JsonRpcMessage> {
    const isStop = refusal === REFUSALS.killSwitch;
    const error = rpcRefusal(id, refusal, {}, reason);
    const { decisionId, audited } = this.pipeline.refusing(
      a2aHopOf(call, 'RESPONSE', error, askedFor.method),
      {
        type: 'COMMUNICATION_AUDIT',
        action: isStop ? 'BLOCK' : 'ERROR',
        reason,
        details: isStop ? details : { outcome: 'ERROR', ...details },
      },
    );
    await audited;
    return rpcRefusal(
      id,
      refusal,
      { reasons: [reason], decisionId, correlationId: call.correlationId },
      reason,
    );
  }

  private requestOf(
    call: A2aCall,
    card: AgentCardJson,
    message: JsonRpcMessage,
    signal: AbortSignal,
  ): A2aUpstreamRequest {
    const target = call.route.target;
    const credential = this.credentialOf(call);
    return {
      url: endpointOf(card)!.url,
      body: JSON.stringify(message),
      isStreaming: isStreamingMethod(message.method ?? ''),
      callerHeaders: call.headers,
      correlationId: call.correlationId,
      trace: call.trace,
      timeoutMs: target.timeoutMs,
      signal,
      label: a2aLabel(call),
      ...(credential ? { credential } : {}),
      ...(call.licence ? { licence: call.licence } : {}),
    };
  }

  /** D37: the target's own credential, opened for this request (the caller's token never travels). */
  private credentialOf(call: A2aCall): A2aUpstreamRequest['credential'] {
    const sealed = call.route.target.credentialSealed;
    if (!sealed) {
      return undefined;
    }
    let plain: string;
    try {
      plain = this.credentials.open(sealed);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new A2aUpstreamFailure(
        502,
        `${a2aLabel(call)}: its credential cannot be opened (${why}); set it again`,
      );
    }
    return upstreamCredentialHeader(call.route.target.credentialHeader, plain);
  }

  private timeoutOf(call: A2aCall): number {
    return call.route.target.timeoutMs;
  }
}

/** One JSON-RPC answer to the request `id`; anything else is the target's fault. */
function parseAnswer(text: string, id: JsonRpcId): JsonRpcMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GarbledAnswer('answered something that is not JSON');
  }
  const why =
    invalidMessage(value) ??
    (kindOf(value as JsonRpcMessage) !== 'response'
      ? 'a request instead of an answer'
      : (value as JsonRpcMessage).id !== id && (value as JsonRpcMessage).id !== null
        ? `an answer to another request (${String((value as JsonRpcMessage).id)})`
        : undefined);
  if (why) {
    throw new GarbledAnswer(`answered something that is not its JSON-RPC answer (${why})`);
  }
  return value as JsonRpcMessage;
}

function contentTypeOf(answer: Dispatcher.ResponseData): string {
  const value = answer.headers['content-type'];
  return (typeof value === 'string' ? value : '').split(';')[0].trim().toLowerCase();
}
