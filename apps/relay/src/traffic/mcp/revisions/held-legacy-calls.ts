import { randomUUID } from 'node:crypto';

import { Injectable, Logger } from '@nestjs/common';

import { REFUSALS } from '../../pipeline/refusal-codes';
import { SseWriter } from '../../pipeline/sse-writer';
import { JsonRpcMessage, kindOf, rpcError, rpcRefusal } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { McpHops } from '../mcp-hops';
import { AskedFor } from '../mcp-messages';
import { McpInputMailbox } from './input-mailbox';
import { heldCallOf, inputKeyOf, inputRequiredOf, requestBindingOf } from './input-requests';
import { answerJudged, translatedStream, writeJudged } from './judged-out';
import { readTurn } from './legacy-call-turns';
import { LegacySession, closeLegacySession } from './legacy-session';
import { completed } from './modern-results';
import { McpServerEras } from './server-eras';
import { isUnaskedLog, objectOr } from './revision-wire';

/** How long a held call waits for the client's retry, and a retry for the call's next turn. */
export const HELD_CALL_WAIT_MS = 10 * 60_000;
const MAX_ROUNDS = 16;
const RPC_INVALID_PARAMS = -32602;

/** A 2025 call the relay keeps open while a 2026 client answers its server's request (T102). */
export interface HeldCall {
  call: McpCall;
  /** The request as the client first sent it. */
  request: JsonRpcMessage;
  session: LegacySession;
  events: AsyncIterator<JsonRpcMessage>;
  /** Ends the server's side (its session is DELETEd after). */
  upstream: AbortController;
}

/**
 * T102: a 2026 client before a 2025 server whose tool asks in the middle of a call. The call is not
 * replayed (a tool that acted before it asked would act twice): it stays open on the replica that
 * made it, and the client's retry, on any replica, resumes it through the mailbox (T101): the
 * retry's answers go to the holding replica, the call's next turn comes back to the retry.
 */
@Injectable()
export class HeldLegacyCalls {
  private readonly logger = new Logger(HeldLegacyCalls.name);

  constructor(
    private readonly eras: McpServerEras,
    private readonly hops: McpHops,
    private readonly mailbox: McpInputMailbox,
  ) {}

  /**
   * The InputRequiredResult for the server's request, judged and written to the client; the call is
   * held until it is answered. T109: held only if the client was asked: when the result is refused
   * or the client is gone, no retry can come, so the call is not held (false) and ends at once. A
   * result held for review (D34) keeps the call: the client may resend and retry once approved.
   */
  async hold(
    held: HeldCall,
    asked: JsonRpcMessage,
    writer: SseWriter,
    askedFor: AskedFor | undefined,
  ): Promise<boolean> {
    const heldId = await this.openRound(held);
    const asking = inputRequiredOf(held.request.id, asked, heldId);
    let why: string | undefined;
    try {
      const judged = await this.hops.judgeFromServer(held.call, asking, askedFor);
      await judged.audited;
      if (judged.forward) {
        await writer.message(judged.forward);
      }
      // T109: a result held for a person is not refused: once approved, the client's resend gets
      // it (D34) and its retry must find the call still held.
      why =
        judged.forward?.result === undefined && !judged.held
          ? 'its input request was refused before it reached the client'
          : writer.isClosed
            ? 'the client went away before it was asked for input'
            : undefined;
    } catch (error) {
      why = `its input request could not be written to the client: ${String(error)}`;
    }
    if (why !== undefined) {
      await this.mailbox.drop([heldId, nextOf(heldId)]);
      this.logger.log(`MCP call ${held.call.correlationId} is not held: ${why}`);
      return false;
    }
    void this.keep(held, asked, heldId);
    return true;
  }

  /** A retry: its answers go to the held call, its answer is the call's next turn. */
  async resume(
    call: McpCall,
    retry: JsonRpcMessage,
    askedFor: AskedFor | undefined,
  ): Promise<McpAnswer> {
    const heldId = heldCallOf(retry);
    const slot = {
      id: heldId ?? '',
      tenantId: call.tenantId,
      partyId: call.agentId,
      binding: bindingOf(call, retry),
    };
    const inputResponses = objectOr(objectOr(retry.params).inputResponses);
    if (heldId === undefined || !(await this.mailbox.deliver(slot, { inputResponses }))) {
      const why =
        'no call of this request is waiting for input (it was answered, ended or timed out, or the ' +
        'request differs); send the request again without inputResponses and requestState';
      return answerJudged(this.hops, call, rpcError(retry.id, RPC_INVALID_PARAMS, why), askedFor);
    }
    const abort = new AbortController();
    return translatedStream(abort, async (writer) => {
      const turn = (await this.mailbox.receive(nextOf(heldId), HELD_CALL_WAIT_MS, abort.signal)) as
        JsonRpcMessage[] | undefined;
      if (!turn) {
        if (!abort.signal.aborted) {
          const why = "the server's call ended before it answered";
          await writer.message(rpcRefusal(retry.id, REFUSALS.streamIncomplete, {}, why));
        }
        return;
      }
      for (const message of turn) {
        const isAnswer = kindOf(message) === 'response';
        const shown = isAnswer ? completed(message, retry) : message;
        await writeJudged(this.hops, call, shown, writer, isAnswer ? askedFor : undefined);
      }
    });
  }

  private async openRound(held: HeldCall): Promise<string> {
    const heldId = `agp-held-${randomUUID()}`;
    const partyId = held.call.agentId;
    await this.mailbox.open(held.call.tenantId, [
      { id: heldId, partyId, binding: bindingOf(held.call, held.request) },
      { id: nextOf(heldId), partyId, binding: '' },
    ]);
    return heldId;
  }

  /** The holding replica's side: each retry's answer sent on, the next turn handed back. */
  private async keep(held: HeldCall, firstAsked: JsonRpcMessage, firstId: string): Promise<void> {
    const { call, request, session, upstream } = held;
    let asked = firstAsked;
    let heldId = firstId;
    try {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const retry = await this.mailbox.receive(heldId, HELD_CALL_WAIT_MS, upstream.signal);
        if (retry === undefined) {
          // No retry in time, or this replica is stopping: a retry already waiting hears why.
          const why = 'the relay no longer holds this call (no retry came in time, or it stopped)';
          await this.handBack(held, heldId, [rpcError(request.id, -32603, why)]);
          return;
        }
        const answer = objectOr(objectOr(retry).inputResponses)[inputKeyOf(asked)];
        const turn: JsonRpcMessage[] = [];
        if (answer !== undefined) {
          const reply = { jsonrpc: '2.0' as const, id: asked.id, result: answer };
          await (await this.eras.send(call, 'POST', session.headers, reply)).body.dump();
          const stop = await readTurn(
            held.events,
            request.id,
            async (note) => void (isUnaskedLog(note, request) || turn.push(note)),
            { ms: call.route.server.timeoutMs, abort: upstream },
          );
          if (stop.kind !== 'input') {
            const why = 'the server closed the stream before answering';
            turn.push(stop.kind === 'final' ? stop.response : rpcError(request.id, -32603, why));
            await this.handBack(held, heldId, turn);
            return;
          }
          asked = stop.request;
        }
        if (round === MAX_ROUNDS - 1) {
          // No round is opened that nobody would fill: the retry hears why the call ended.
          turn.push(rpcError(request.id, -32603, `too many input rounds (${MAX_ROUNDS})`));
          await this.handBack(held, heldId, turn);
          return;
        }
        // A retry without the answer is asked again, as a 2026 server would (SEP-2322).
        const nextId = await this.openRound(held);
        turn.push(inputRequiredOf(request.id, asked, nextId));
        if (!(await this.handBack(held, heldId, turn))) {
          // The retry is gone (its stream ended): nobody learns of the next round, so it ends now.
          await this.mailbox.drop([nextId, nextOf(nextId)]);
          return;
        }
        heldId = nextId;
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      await this.handBack(held, heldId, [rpcError(request.id, -32603, why)]).catch(() => {});
    } finally {
      upstream.abort();
      closeLegacySession(this.eras, call, session);
    }
  }

  /** False when the retry waiting for this turn is gone (its slot was dropped). */
  private handBack(held: HeldCall, heldId: string, turn: JsonRpcMessage[]): Promise<boolean> {
    const slot = { id: nextOf(heldId), tenantId: held.call.tenantId, partyId: held.call.agentId };
    return this.mailbox.deliver({ ...slot, binding: '' }, turn);
  }
}

/** T102: a retry resumes a held call only on the call's own MCP server (its route, its policy). */
function bindingOf(call: McpCall, request: JsonRpcMessage): string {
  return `${call.route.server.id}:${requestBindingOf(request)}`;
}

function nextOf(heldId: string): string {
  return `${heldId}.next`;
}
