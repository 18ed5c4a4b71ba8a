import { Injectable } from '@nestjs/common';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { StreamEnding } from '../pipeline/refusal-answers';
import { REFUSALS } from '../pipeline/refusal-codes';
import { SseWriter } from '../pipeline/sse-writer';
import { StreamWatch } from '../pipeline/stream-watch';
import { JsonRpcId, JsonRpcMessage, rpcRefusal } from './json-rpc';
import { McpCall, hopOf } from './mcp-call';
import { GarbledStream, relayEventStream } from './mcp-event-stream';
import { McpHops } from './mcp-hops';
import { AskedFor } from './mcp-messages';
import { McpUpstream, UpstreamRequest, failureOf, serverLabel } from './mcp-upstream';

/** How often an idle stream gets a comment line (the gateway's idle timeout is longer). */
const KEEP_ALIVE_MS = 15_000;

/** A stream the exchange opened, carried to the agent by `McpOpenStreams.run`. */
export interface OpenStream {
  call: McpCall;
  /** The server's events, as SSE text (T95: a listen stream's JSON lines already made so). */
  answer: { body: AsyncIterable<Buffer | string> };
  abort: AbortController;
  /** The agent's requests the stream is to answer, with what each asked for. */
  pending: Map<JsonRpcId, AskedFor>;
  /** Writes what precedes the server's events (the headers, the relay's own answers). */
  open(writer: SseWriter): Promise<void>;
  /** The request the relay answers the server's own requests with (same session). */
  requestOf(signal: AbortSignal): UpstreamRequest;
}

/** D33, D35, D32, T2, T6: unanswered requests get an audited error, so no agent waits for ever. */
@Injectable()
export class McpOpenStreams {
  constructor(
    private readonly upstream: McpUpstream,
    private readonly hops: McpHops,
    private readonly pipeline: HopPipeline,
    private readonly watch: StreamWatch,
  ) {}

  async run(stream: OpenStream, writer: SseWriter): Promise<void> {
    const { call, answer, abort, pending } = stream;
    await stream.open(writer);
    let stoppedFor: StreamEnding | undefined;
    const unwatch = this.watch.watch(call.admission, (ending) => {
      stoppedFor ??= ending;
      abort.abort();
    });
    const keepAlive = setInterval(() => void writer.keepAlive(), KEEP_ALIVE_MS);
    let ending: StreamEnding | undefined;
    try {
      const stop = await relayEventStream(answer.body, {
        call,
        hops: this.hops,
        writer,
        pending,
        answerServer: (reply) => this.answerServer(stream, reply),
        stopReason: () => this.watch.stopReason(call.admission),
        refuseStopped: (messages, reason) => this.refuseStopped(call, messages, reason),
      });
      if (stop) {
        ending = { refusal: REFUSALS.killSwitch, reason: stop };
      }
    } catch (error) {
      if (!abort.signal.aborted) {
        const why =
          error instanceof GarbledStream
            ? `${serverLabel(call.route.server)} sent ${error.message}`
            : failureOf(error, call.route.server).message;
        ending = { refusal: REFUSALS.streamIncomplete, reason: why };
      }
    } finally {
      clearInterval(keepAlive);
      unwatch();
    }
    ending = stoppedFor ?? ending;
    if (!abort.signal.aborted || stoppedFor) {
      ending ??= {
        refusal: REFUSALS.streamIncomplete,
        reason: `${serverLabel(call.route.server)} closed the stream before answering`,
      };
      await this.answerPending(call, writer, pending, ending);
      abort.abort();
    }
    writer.end();
  }

  /** Requests the server never answered get an error each, audited, so no agent waits forever. */
  private async answerPending(
    call: McpCall,
    writer: SseWriter,
    pending: Map<JsonRpcId, AskedFor>,
    ending: StreamEnding,
  ): Promise<void> {
    const isStop = ending.refusal === REFUSALS.killSwitch;
    for (const [id, askedFor] of pending) {
      const error = rpcRefusal(
        id,
        ending.refusal,
        { reasons: [ending.reason], correlationId: call.correlationId },
        ending.reason,
      );
      await this.pipeline.refuse(hopOf(call, 'RESPONSE', error, askedFor), {
        type: 'COMMUNICATION_AUDIT',
        action: isStop ? 'BLOCK' : 'ERROR',
        reason: ending.reason,
        ...(isStop ? {} : { details: { outcome: 'ERROR' } }),
      });
      await writer.message(error);
    }
    pending.clear();
  }

  private answerServer(stream: OpenStream, reply: JsonRpcMessage): void {
    const request = stream.requestOf(AbortSignal.timeout(stream.call.route.server.timeoutMs));
    this.upstream
      .send({ ...request, body: JSON.stringify(reply) })
      .then((answer) => answer.body.dump())
      .catch(() => undefined);
  }

  private async refuseStopped(
    call: McpCall,
    messages: JsonRpcMessage[],
    reason: string,
  ): Promise<void> {
    await Promise.all(
      messages.map((m) =>
        this.pipeline.refuse(hopOf(call, 'RESPONSE', m), {
          type: 'COMMUNICATION_AUDIT',
          action: 'BLOCK',
          reason,
        }),
      ),
    );
  }
}
