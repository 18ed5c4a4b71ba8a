import { randomUUID } from 'node:crypto';

import { JsonRpcMessage } from '../../traffic/mcp/json-rpc';
import { EvaluationResponse } from '../dto/pack-responses';
import { initialMessage } from '../simulate-evaluation';

/** G16: an evaluation whose input says nothing a LIVE run could send. */
export class UnsendableInput extends Error {}

/** The MCP revision a LIVE run's handshake offers (the servers answer the one they speak). */
export const LIVE_MCP_REVISION = '2025-06-18';

type Json = Record<string, unknown>;

function isRequest(value: unknown): value is Json & { method: string } {
  return typeof value === 'object' && value !== null && typeof (value as Json).method === 'string';
}

/** A JSON-RPC request as written is sent as it is (its id made ours, so answers pair up). */
function asRequest(value: Json & { method: string }): JsonRpcMessage {
  return { ...value, jsonrpc: '2.0', id: 1 };
}

/**
 * G16, R12: a JSON-RPC request as the input is sent as written; otherwise a `tools/call` of the
 * first hop's `toolName` with the input (JSON, or `{"text": …}`) as its arguments, or the first
 * hop's `method` with it as `params`.
 */
export function mcpRequestOf(evaluation: EvaluationResponse): JsonRpcMessage {
  const input = initialMessage(evaluation.input);
  if (isRequest(input)) {
    return asRequest(input);
  }
  const first = evaluation.hops[0];
  if (first?.toolName) {
    return asRequest({ method: 'tools/call', params: { name: first.toolName, arguments: input } });
  }
  if (first?.method) {
    return asRequest({ method: first.method, params: input });
  }
  throw new UnsendableInput(
    'an MCP evaluation sends a JSON-RPC request as its input, or its first hop names toolName or method',
  );
}

/**
 * G16: a JSON-RPC request as the input is sent as written; otherwise an A2A 1.0 `SendMessage`
 * (or the first hop's `method`) of one user message: the input's `parts` when it has them, else
 * the input as one text part.
 */
export function a2aRequestOf(evaluation: EvaluationResponse): JsonRpcMessage {
  const input = initialMessage(evaluation.input);
  if (isRequest(input)) {
    return asRequest(input);
  }
  const parts = Array.isArray((input as Json).parts)
    ? ((input as Json).parts as unknown[])
    : [{ text: evaluation.input }];
  return asRequest({
    method: evaluation.hops[0]?.method ?? 'SendMessage',
    params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts } },
  });
}

/**
 * G16: a chat request as the input (it has `messages`) is sent as written, without streaming
 * unless it asks for it; otherwise one user message of the input, to the gateway's `model`.
 */
export function llmRequestOf(evaluation: EvaluationResponse, model: string | undefined): Json {
  const input = initialMessage(evaluation.input) as Json;
  if (Array.isArray(input.messages)) {
    return { ...input, model: typeof input.model === 'string' ? input.model : model };
  }
  if (model === undefined) {
    throw new UnsendableInput('the LLM gateway offers no model to send the input to');
  }
  return { model, messages: [{ role: 'user', content: evaluation.input }] };
}
