import { Injectable } from '@nestjs/common';

import { upstreamCredentialHeader } from '../../mcp-servers/upstream-credential';
import { A2aTarget } from '../a2a/a2a-directory';
import {
  A2aUpstream,
  A2aUpstreamFailure,
  MAX_A2A_MESSAGE_BYTES,
  a2aFailureOf,
  readLimited,
} from '../a2a/a2a-upstream';
import { AgentCardJson, endpointOf } from '../a2a/agent-card';
import { AgentCards } from '../a2a/agent-cards.service';
import { OpenedCredentials } from '../pipeline/opened-credentials';
import { CallTrace } from '../tracing/call-trace';
import { dataPartsOf } from '../../validation/a2a-validation';

/** `contextId`: an operator's message goes into its conversation's A2A context (D44). */
export interface AgentMessage {
  id: string;
  text: string;
  metadata: Record<string, unknown>;
  contextId?: string;
}

/** What the agent answered a channel message, or why it could not. */
export type AgentAnswer =
  /** `card`: the card the agent was asked through (its data schemas check the answer, GR37). */
  | { kind: 'text'; text: string; dataParts: unknown[]; card: AgentCardJson }
  | { kind: 'failed'; status: number; reason: string };

/** CH12, D37: a blocking `SendMessage` (`message/send` for 0.3) with the agent's own credential. */
@Injectable()
export class ChannelAgent {
  constructor(
    private readonly upstream: A2aUpstream,
    private readonly cards: AgentCards,
    private readonly credentials: OpenedCredentials,
  ) {}

  async ask(
    tenantId: string,
    correlationId: string,
    agent: A2aTarget,
    trace: CallTrace,
    message: AgentMessage,
  ): Promise<AgentAnswer> {
    const label = `agent "${agent.name}" (${agent.id})`;
    try {
      const card = await this.cards.cardOf(tenantId, correlationId, agent);
      const endpoint = endpointOf(card);
      if (!endpoint) {
        return {
          kind: 'failed',
          status: 502,
          reason: `${label} has no JSON-RPC interface on its card`,
        };
      }
      const isLegacy = endpoint.protocolVersion.startsWith('0.');
      const body = isLegacy ? legacySend(message) : send(message);
      const credential = agent.credentialSealed
        ? upstreamCredentialHeader(
            agent.credentialHeader,
            this.credentials.open(agent.credentialSealed),
          )
        : undefined;
      const answer = await this.upstream.send({
        url: endpoint.url,
        body: JSON.stringify(body),
        isStreaming: false,
        callerHeaders: { 'a2a-version': isLegacy ? '0.3' : '1.0' },
        correlationId,
        trace,
        timeoutMs: agent.timeoutMs,
        signal: AbortSignal.timeout(agent.timeoutMs + 1_000),
        label,
        ...(credential ? { credential } : {}),
      });
      const text = await readLimited(answer, MAX_A2A_MESSAGE_BYTES, label);
      const answered = answerOf(text, label);
      return answered.kind === 'text' ? { ...answered, card } : answered;
    } catch (error) {
      const failure =
        error instanceof A2aUpstreamFailure ? error : a2aFailureOf(error, label, agent.timeoutMs);
      return { kind: 'failed', status: failure.status, reason: failure.message };
    }
  }
}

function send(message: AgentMessage) {
  return {
    jsonrpc: '2.0',
    id: message.id,
    method: 'SendMessage',
    params: {
      message: {
        messageId: message.id,
        role: 'ROLE_USER',
        parts: [{ text: message.text }],
        metadata: message.metadata,
        ...(message.contextId ? { contextId: message.contextId } : {}),
      },
    },
  };
}

function legacySend(message: AgentMessage) {
  return {
    jsonrpc: '2.0',
    id: message.id,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: message.id,
        role: 'user',
        parts: [{ kind: 'text', text: message.text }],
        metadata: message.metadata,
        ...(message.contextId ? { contextId: message.contextId } : {}),
      },
    },
  };
}

type Json = Record<string, unknown>;

/** The text parts of an answer: a task's artifacts (else its status message), or a message. */
function answerOf(
  body: string,
  label: string,
): Exclude<AgentAnswer, { kind: 'text' }> | { kind: 'text'; text: string; dataParts: unknown[] } {
  let parsed: Json;
  try {
    parsed = JSON.parse(body) as Json;
  } catch {
    return { kind: 'failed', status: 502, reason: `${label} answered something that is not JSON` };
  }
  if (parsed.error) {
    const error = parsed.error as Json;
    return {
      kind: 'failed',
      status: 502,
      reason: `${label} answered error ${String(error.code)}: ${String(error.message)}`,
    };
  }
  const result = (parsed.result ?? {}) as Json;
  // 1.0 wraps the answer (`{task}` or `{message}`); 0.3 gives it bare with a `kind`.
  const task = (result.task ?? (result.kind === 'task' ? result : undefined)) as Json | undefined;
  const reply = (result.message ?? (result.kind === 'message' ? result : undefined)) as
    Json | undefined;
  const parts = task
    ? ((task.artifacts as Json[] | undefined) ?? []).flatMap(
        (a) => (a.parts as Json[] | undefined) ?? [],
      )
    : ((reply?.parts as Json[] | undefined) ?? []);
  const statusParts =
    (((task?.status as Json | undefined)?.message as Json | undefined)?.parts as
      Json[] | undefined) ?? [];
  const answered = parts.length > 0 ? parts : statusParts;
  const texts = answered
    .map((p) => (typeof p.text === 'string' ? p.text : ''))
    .filter((t) => t.length > 0);
  if (texts.length === 0) {
    return { kind: 'failed', status: 502, reason: `${label} answered without any text` };
  }
  // GR37: data parts are not posted (a channel carries text), but policies see and check them.
  return { kind: 'text', text: texts.join('\n'), dataParts: dataPartsOf(answered) };
}
