import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { REFUSALS } from '../../pipeline/refusal-codes';
import { SseWriter } from '../../pipeline/sse-writer';
import { JsonRpcMessage, kindOf, rpcError, rpcRefusal } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { McpHops } from '../mcp-hops';
import { answerJudged, translatedStream, writeJudged } from './judged-out';
import { AskedFor } from '../mcp-messages';
import { UpstreamAnswer, failureOf } from '../mcp-upstream';
import { PaidCall } from '../../payments/paid-call';
import { PaidSent, sendPaid } from './paid-send';
import { McpInputMailbox } from './input-mailbox';
import { McpListenBridge } from './listen-bridge';
import { McpServerEras, readAnswer } from './server-eras';
import { TranslatedSessions } from './translated-sessions';
import { parseEventStream } from './upstream-events';
import {
  LOG_LEVELS,
  LegacyClient,
  META_SERVER_INFO,
  legacyClientOf,
  legacyRevisionFor,
  modernHeadersOf,
  objectOr,
  sessionIdOf,
  withEnvelope,
} from './revision-wire';

/** MRTR rounds one request may take before the relay gives up on the server (T99). */
const MAX_INPUT_ROUNDS = 16;
/** The ids of the relay's own input requests to a 2025 client (T99, T101). */
const INPUT_ID_PREFIX = 'agp-input-';
/** How long an input request (a person answering an elicitation) may take. */
const INPUT_WAIT_MS = 10 * 60_000;
/** Methods 2026-07-28 removed that a 2025 client still sends; the relay answers them (T97). */
const RPC_INVALID_PARAMS = -32602;

/**
 * T97, T99: a 2025-era client before a server that speaks only 2026-07-28. The relay answers
 * `initialize` from `server/discover` and mints a session id that carries what the client declared;
 * each later request goes out with that as its `_meta` envelope, and an InputRequiredResult
 * becomes the server-initiated requests the client knows, answered on the same stream.
 */
@Injectable()
export class LegacyClientBridge {
  constructor(
    private readonly eras: McpServerEras,
    private readonly hops: McpHops,
    private readonly listens: McpListenBridge,
    private readonly mailbox: McpInputMailbox,
    private readonly sessions: TranslatedSessions,
  ) {}

  async forward(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor: AskedFor | undefined,
    paid?: PaidCall,
  ): Promise<McpAnswer> {
    switch (kindOf(message)) {
      case 'notification':
        return { kind: 'empty', status: 202 };
      case 'response':
        return this.answered(call, message);
      case 'request':
        break;
    }
    if (message.method === 'initialize') {
      return this.initialize(call, message, askedFor);
    }
    const client = legacyClientOf(call.agentHeaders);
    if (!client) {
      const why = 'this session was not started by initialize on this path';
      return { kind: 'json', status: 404, body: rpcError(message.id, -32001, why) };
    }
    const kept = await this.keptHere(call, message);
    if (kept) {
      return answerJudged(this.hops, call, kept, askedFor);
    }
    const { logLevel } = await this.sessions.stateOf(call);
    const sent = withEnvelope(message, client, logLevel);
    const abort = new AbortController();
    // payments.md PY19: the first POST before the stream opens, so a 402 is still the answer.
    let first: PaidSent;
    try {
      first = await sendPaid(this.eras, call, modernHeadersOf(sent), sent, abort.signal, paid);
    } catch (error) {
      const why = failureOf(error, call.route.server).message;
      const refusal = rpcRefusal(message.id, REFUSALS.upstreamFailed, {}, why);
      return answerJudged(this.hops, call, refusal, askedFor);
    }
    if (first.kind === 'required') {
      return first.answer;
    }
    const opened = first.answer;
    return translatedStream(
      abort,
      async (writer) => {
        try {
          await this.rounds(call, sent, askedFor, writer, abort.signal, opened);
        } catch (error) {
          if (!abort.signal.aborted) {
            const why = failureOf(error, call.route.server).message;
            await writeJudged(
              this.hops,
              call,
              rpcRefusal(message.id, REFUSALS.upstreamFailed, {}, why),
              writer,
              askedFor,
            );
          }
        }
      },
      first.headers,
    );
  }

  /**
   * T97, T104: what 2026-07-28 keeps per request or per listen stream, and a 2025 client sets once
   * per session: answered by the relay, kept for the session (its later requests carry the log
   * level in `_meta`, its GET stream listens to its resources). Undefined: the server answers.
   */
  private async keptHere(
    call: McpCall,
    message: JsonRpcMessage,
  ): Promise<JsonRpcMessage | undefined> {
    const params = objectOr(message.params);
    const done: JsonRpcMessage = { jsonrpc: '2.0', id: message.id, result: {} };
    switch (message.method ?? '') {
      case 'ping':
        return done;
      case 'logging/setLevel':
        if (typeof params.level !== 'string' || !LOG_LEVELS.includes(params.level)) {
          const why = `level must be one of ${LOG_LEVELS.join(', ')}`;
          return rpcError(message.id, RPC_INVALID_PARAMS, why);
        }
        await this.sessions.setLogLevel(call, params.level);
        return done;
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        if (typeof params.uri !== 'string' || params.uri.length === 0) {
          return rpcError(message.id, RPC_INVALID_PARAMS, 'uri must be a non-empty string');
        }
        await this.sessions.subscribe(call, params.uri, message.method === 'resources/subscribe');
        return done;
      default:
        return undefined;
    }
  }

  listen(call: McpCall): Promise<McpAnswer> | McpAnswer {
    const client = legacyClientOf(call.agentHeaders);
    return client ? this.listens.forModernServer(call, client) : { kind: 'empty', status: 404 };
  }

  /** One request to its final answer, each InputRequiredResult asked of the client (T99). */
  private async rounds(
    call: McpCall,
    request: JsonRpcMessage,
    askedFor: AskedFor | undefined,
    writer: SseWriter,
    signal: AbortSignal,
    opened?: UpstreamAnswer,
  ): Promise<void> {
    let current = request;
    for (let round = 0; round < MAX_INPUT_ROUNDS; round++) {
      const final = await this.send(
        call,
        current,
        writer,
        signal,
        round === 0 ? opened : undefined,
      );
      const result = objectOr(final.result);
      if (final.result === undefined || result.resultType !== 'input_required') {
        await writeJudged(this.hops, call, asLegacy(final), writer, askedFor);
        return;
      }
      const responses: Record<string, unknown> = {};
      for (const [key, asked] of Object.entries(objectOr(result.inputRequests))) {
        const reply = await this.ask(call, objectOr(asked), writer, signal);
        if (!reply || reply.result === undefined) {
          const why =
            reply?.error?.message ?? "the client did not answer the server's input request";
          await writeJudged(
            this.hops,
            call,
            rpcError(request.id, reply?.error?.code ?? -32603, why),
            writer,
            askedFor,
          );
          return;
        }
        responses[key] = reply.result;
      }
      const params = objectOr(current.params);
      current = {
        ...current,
        params: {
          ...params,
          inputResponses: responses,
          ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
        },
      };
    }
    const why = `the server asked for input more than ${MAX_INPUT_ROUNDS} times`;
    await writeJudged(this.hops, call, rpcError(request.id, -32603, why), writer, askedFor);
  }

  /** The request to the server; its progress and log notifications go on to the client. */
  private async send(
    call: McpCall,
    request: JsonRpcMessage,
    writer: SseWriter,
    signal: AbortSignal,
    /** The first round's answer, already in (PY19). */
    opened?: UpstreamAnswer,
  ): Promise<JsonRpcMessage> {
    const answer =
      opened ?? (await this.eras.send(call, 'POST', modernHeadersOf(request), request, { signal }));
    const type = String(answer.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('text/event-stream')) {
      for await (const message of parseEventStream(answer.body)) {
        if (kindOf(message) === 'notification') {
          await writeJudged(this.hops, call, message, writer);
        } else if (kindOf(message) === 'response') {
          return { ...message, id: request.id };
        }
      }
      throw new Error('the server closed the stream before answering');
    }
    const reply = await readAnswer(answer);
    if (!reply) {
      throw new Error(`the server answered HTTP ${answer.statusCode} without a JSON-RPC message`);
    }
    return { ...reply, id: request.id };
  }

  /** An input request as the session revision's server-initiated request, and its answer. */
  private async ask(
    call: McpCall,
    asked: Record<string, unknown>,
    writer: SseWriter,
    signal: AbortSignal,
  ): Promise<JsonRpcMessage | undefined> {
    const id = `${INPUT_ID_PREFIX}${randomUUID()}`;
    const request: JsonRpcMessage = {
      jsonrpc: '2.0',
      id,
      method: String(asked.method),
      params: objectOr(asked.params),
    };
    const judged = await this.hops.judgeFromServer(call, request);
    await judged.audited;
    if (!judged.forward) {
      return judged.answer;
    }
    // T101: the client's answer may land on any replica; the slot is open before it is asked.
    await this.mailbox.open(call.tenantId, [{ id, partyId: call.agentId, binding: '' }]);
    const answered = this.mailbox.receive(id, INPUT_WAIT_MS, signal);
    await writer.message(judged.forward);
    return (await answered) as JsonRpcMessage | undefined;
  }

  /**
   * T101: the client's answer to one of the relay's input requests, on whichever replica it
   * landed. One the relay did not ask (or asked another party, or was answered already) is 400,
   * as the transport has a server refuse input it cannot accept.
   */
  private async answered(call: McpCall, message: JsonRpcMessage): Promise<McpAnswer> {
    const id = typeof message.id === 'string' ? message.id : undefined;
    const slot = { id: id ?? '', tenantId: call.tenantId, partyId: call.agentId, binding: '' };
    if (id?.startsWith(INPUT_ID_PREFIX) && (await this.mailbox.deliver(slot, message))) {
      return { kind: 'empty', status: 202 };
    }
    const why = 'no input request of this session is waiting for this answer';
    return { kind: 'json', status: 400, body: rpcError(message.id ?? null, -32600, why) };
  }

  private async initialize(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor: AskedFor | undefined,
  ): Promise<McpAnswer> {
    const params = objectOr(message.params);
    const client: LegacyClient = {
      protocolVersion: legacyRevisionFor(params.protocolVersion),
      clientInfo: objectOr(params.clientInfo),
      capabilities: objectOr(params.capabilities),
      nonce: randomUUID(),
    };
    const discover = withEnvelope(
      { jsonrpc: '2.0', id: `agp-discover-${randomUUID()}`, method: 'server/discover', params: {} },
      client,
    );
    let reply: JsonRpcMessage | undefined;
    try {
      const answer = await this.eras.send(call, 'POST', modernHeadersOf(discover), discover);
      reply = await readAnswer(answer);
    } catch (error) {
      const why = failureOf(error, call.route.server).message;
      return answerJudged(
        this.hops,
        call,
        rpcRefusal(message.id, REFUSALS.upstreamFailed, {}, why),
        askedFor,
      );
    }
    if (!reply || reply.result === undefined) {
      const why = reply?.error?.message ?? 'the server did not answer server/discover';
      return answerJudged(
        this.hops,
        call,
        rpcRefusal(message.id, REFUSALS.upstreamFailed, {}, why),
        askedFor,
      );
    }
    const discovered = objectOr(reply.result);
    // T104: resources.subscribe stays: the relay carries subscriptions on the listen stream.
    const capabilities = objectOr(discovered.capabilities);
    const serverInfo = objectOr(objectOr(discovered._meta)[META_SERVER_INFO]);
    const result = {
      protocolVersion: client.protocolVersion,
      capabilities,
      serverInfo:
        Object.keys(serverInfo).length > 0
          ? serverInfo
          : { name: call.route.server.name, version: '0' },
      ...(typeof discovered.instructions === 'string'
        ? { instructions: discovered.instructions }
        : {}),
    };
    const answer = await answerJudged(
      this.hops,
      call,
      { jsonrpc: '2.0', id: message.id, result },
      askedFor,
    );
    return { ...answer, headers: { 'mcp-session-id': sessionIdOf(client) } };
  }
}

/** A 2026 result as a 2025 client reads it: without the fields of SEP-2322 and SEP-2549. */
function asLegacy(reply: JsonRpcMessage): JsonRpcMessage {
  if (reply.result === undefined) {
    return reply;
  }
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...result } = objectOr(reply.result);
  return { ...reply, result };
}
