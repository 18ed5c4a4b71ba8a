import { IncomingHttpHeaders } from 'node:http';

import { DomainException } from '@agp/http';

import { A2aAnswer } from '../../traffic/a2a/a2a-exchange';
import { A2aRelayService } from '../../traffic/a2a/a2a-relay.service';
import { EvaluationTap } from '../../traffic/pipeline/evaluation-taps';
import { TrafficCaller } from '../../traffic/pipeline/traffic-intake';
import { JsonRpcMessage } from '../../traffic/mcp/json-rpc';
import { McpAnswer } from '../../traffic/mcp/mcp-exchange';
import { McpRelayService } from '../../traffic/mcp/mcp-relay.service';
import { LlmAnswer } from '../../traffic/llm/llm-answer';
import { LlmRelayService } from '../../traffic/llm/llm-relay.service';
import { EvaluationResponse } from '../dto/pack-responses';
import { LIVE_MCP_REVISION, llmRequestOf } from './live-messages';
import { StreamReader } from './stream-reader';

/** What the caller was answered: the status and every message (a stream's, in order). */
export interface Delivered {
  status: number;
  messages: unknown[];
  headers: Record<string, string>;
  /** The problem (D12) the path refused the call with, when it threw one. */
  problem?: string;
}

/** What a LIVE evaluation's traffic came to: from which observed hop its own message's start. */
export interface DrivenTraffic {
  firstHop: number;
  /** How the exchange ended, for the hops it never reached (G17). */
  ended: string;
}

/** G17: a streamed answer is read to its end here, as the agent would have; `signal` cancels it. */
export async function readAnswer(
  answer: McpAnswer | A2aAnswer,
  signal: AbortSignal,
): Promise<Delivered> {
  const headers = 'headers' in answer ? (answer.headers ?? {}) : {};
  if (answer.kind === 'json') {
    const messages = Array.isArray(answer.body) ? (answer.body as unknown[]) : [answer.body];
    return { status: answer.status, messages, headers };
  }
  if (answer.kind === 'empty') {
    return { status: answer.status, messages: [], headers };
  }
  if (answer.kind === 'raw') {
    // An x402 402 handed back as the payee sent it (D60): no JSON-RPC message was delivered.
    return { status: answer.status, messages: [], headers };
  }
  const reader = new StreamReader();
  const cancel = (): void => answer.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    await answer.run(reader.writer);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  return { status: 200, messages: reader.messages(), headers };
}

/** T20: a completion (streamed to its end; a failover before the first event answers JSON). */
async function readLlmAnswer(answer: LlmAnswer): Promise<Delivered> {
  if (answer.kind === 'json') {
    return { status: answer.status, messages: [answer.body], headers: answer.headers };
  }
  const reader = new StreamReader();
  const instead = await answer.run(() => reader.writer);
  if (instead) {
    return { status: instead.status, messages: [instead.body], headers: instead.headers };
  }
  return { status: 200, messages: reader.messages(), headers: answer.headers };
}

/** A refusal the path throws (D32's 403, a missing target's 404) is an answer too. */
async function answerOf<A>(
  answering: Promise<A>,
  read: (answer: A) => Promise<Delivered>,
): Promise<Delivered> {
  try {
    return await read(await answering);
  } catch (error) {
    if (!(error instanceof DomainException)) {
      throw error;
    }
    return { status: error.status, messages: [], headers: {}, problem: error.message };
  }
}

/** How the caller was answered, in a few words (the reason the later hops were not reached). */
export function endedBy(delivered: Delivered): string {
  const failed = delivered.messages.find(
    (m): m is JsonRpcMessage => typeof m === 'object' && m !== null && 'error' in m,
  );
  if (failed?.error) {
    return `answered ${failed.error.code} ${failed.error.message}`;
  }
  if (delivered.problem) {
    return `refused with HTTP ${delivered.status}: ${delivered.problem}`;
  }
  return `answered HTTP ${delivered.status}`;
}

/**
 * G16: the MCP lifecycle a client goes through (initialize, initialized, the request, the end
 * of the session), each message a real hop; the evaluation's hops are those of its request.
 */
export async function driveMcp(
  relay: McpRelayService,
  caller: TrafficCaller,
  serverId: string,
  request: JsonRpcMessage,
  tap: EvaluationTap,
  signal: AbortSignal,
): Promise<DrivenTraffic> {
  const base: IncomingHttpHeaders = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: LIVE_MCP_REVISION,
      capabilities: {},
      clientInfo: { name: 'agp-evaluation-run', version: '1.0.0' },
    },
  };
  const firstTry = tap.hops.length;
  const opened = await answerOf(
    relay.post({ ...caller, headers: base }, serverId, initialize),
    (a) => readAnswer(a, signal),
  );
  const accepted = opened.messages[0] as JsonRpcMessage | undefined;
  const revision = (accepted?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (opened.status !== 200 || typeof revision !== 'string') {
    if (tap.hops[firstTry]?.refusal === undefined) {
      return { firstHop: tap.hops.length, ended: `the MCP handshake was ${endedBy(opened)}` };
    }
    // G17: refused at admission (subscription, kill switch, rate limit): the request itself is
    // sent, so the refusal its hop gets is the one recorded; admission keeps it from the server.
    const firstHop = tap.hops.length;
    const answered = await answerOf(
      relay.post({ ...caller, headers: base }, serverId, request),
      (a) => readAnswer(a, signal),
    );
    return { firstHop, ended: endedBy(answered) };
  }
  const session = opened.headers['mcp-session-id'];
  const headers: IncomingHttpHeaders = {
    ...base,
    'mcp-protocol-version': revision,
    ...(session ? { 'mcp-session-id': session } : {}),
  };
  const inSession = { ...caller, headers };
  try {
    await readAnswer(
      await relay.post(inSession, serverId, {
        jsonrpc: '2.0',
        method: 'notifications/initialized',
      }),
      signal,
    );
    const firstHop = tap.hops.length;
    const answered = await readAnswer(await relay.post(inSession, serverId, request), signal);
    return { firstHop, ended: endedBy(answered) };
  } finally {
    if (session) {
      await relay.end(inSession, serverId).catch(() => undefined);
    }
  }
}

/** G16: one A2A request to the target agent, its answer (or stream) read to the end. */
export async function driveA2a(
  relay: A2aRelayService,
  caller: TrafficCaller,
  targetId: string,
  request: JsonRpcMessage,
  signal: AbortSignal,
): Promise<DrivenTraffic> {
  const headers: IncomingHttpHeaders = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'a2a-version': '1.0',
  };
  const answered = await answerOf(relay.post({ ...caller, headers }, targetId, request), (a) =>
    readAnswer(a, signal),
  );
  return { firstHop: 0, ended: endedBy(answered) };
}

/** G16: one chat completion through the gateway, to the model the input names or its first one. */
export async function driveLlm(
  relay: LlmRelayService,
  caller: TrafficCaller,
  gatewayId: string,
  evaluation: EvaluationResponse,
): Promise<DrivenTraffic> {
  const listed = await answerOf(relay.models(caller, gatewayId), readLlmAnswer);
  const models = (listed.messages[0] as { data?: Array<{ id?: unknown }> } | undefined)?.data;
  const first = models?.find((m) => typeof m.id === 'string')?.id as string | undefined;
  const request = llmRequestOf(evaluation, first);
  const answered = await answerOf(relay.complete(caller, gatewayId, request), readLlmAnswer);
  return { firstHop: 0, ended: endedBy(answered) };
}
