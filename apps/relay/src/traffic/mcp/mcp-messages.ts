import { createHash } from 'node:crypto';

import { textOf } from '../../decisions/apply-masks';
import { canonicalJson } from '../pipeline/canonical-json';
import { JsonRpcMessage } from './json-rpc';

/** A tool grant (D32): null allows every tool, a list only those names. */
export type ToolGrant = readonly string[] | null;

/** What a request asked for, remembered so its response's hop names the same method and tool. */
export interface AskedFor {
  method: string;
  tool?: string;
  /** What a resend of the request must match to release a held answer to it (D34). */
  resendDigest?: string;
}

/** D34: without id and `_meta`: clients renumber requests and may add a progress token. */
export function resendDigestOf(message: JsonRpcMessage): string {
  const params =
    message.params && !Array.isArray(message.params)
      ? Object.fromEntries(Object.entries(message.params).filter(([key]) => key !== '_meta'))
      : (message.params ?? null);
  return createHash('sha256')
    .update(
      canonicalJson({ method: message.method ?? null, params, result: message.result ?? null }),
    )
    .digest('hex');
}

/** POLICY.md `message.text`: payload only, so a text policy never matches "tools/call". */
export function payloadText(message: JsonRpcMessage): string {
  return textOf(message.params ?? message.result ?? message.error ?? null);
}

/** The tool a `tools/call` request names (POLICY.md `tool`), if it names one. */
export function toolOf(message: JsonRpcMessage): string | undefined {
  if (message.method !== 'tools/call' || !message.params || Array.isArray(message.params)) {
    return undefined;
  }
  const name = message.params.name;
  return typeof name === 'string' ? name : undefined;
}

export function isGranted(grant: ToolGrant, tool: string): boolean {
  return grant === null || grant.includes(tool);
}

/** `tools/list` answers only the tools of the grant (issue 11 § 4). */
export function filterToolList(message: JsonRpcMessage, grant: ToolGrant): JsonRpcMessage {
  const result = message.result as { tools?: unknown } | undefined;
  if (grant === null || !result || !Array.isArray(result.tools)) {
    return message;
  }
  const tools = result.tools.filter(
    (tool) =>
      typeof (tool as { name?: unknown }).name === 'string' &&
      grant.includes((tool as { name: string }).name),
  );
  return { ...message, result: { ...result, tools } };
}

/** D51, traffic.md T86: a `tools/list` answer without the tools named in `names`. */
export function withoutTools(message: JsonRpcMessage, names: ReadonlySet<string>): JsonRpcMessage {
  const result = message.result as { tools?: unknown } | undefined;
  if (names.size === 0 || !result || !Array.isArray(result.tools)) {
    return message;
  }
  const tools = result.tools.filter((tool) => !names.has((tool as { name?: string }).name ?? ''));
  return { ...message, result: { ...result, tools } };
}

/** D33 WARN in `_meta`; error responses and array params have none and pass unchanged. */
export function withWarnings(message: JsonRpcMessage, warnings: string[]): JsonRpcMessage {
  const key = message.method !== undefined ? 'params' : 'result';
  const holder = message[key] ?? (key === 'params' ? {} : undefined);
  if (!holder || typeof holder !== 'object' || Array.isArray(holder)) {
    return message;
  }
  const record = holder as Record<string, unknown>;
  const meta = (record._meta as Record<string, unknown> | undefined) ?? {};
  return { ...message, [key]: { ...record, _meta: { ...meta, agp: { warnings } } } };
}

/** A mask cannot change `jsonrpc`, `id` or `method`, or the request would miss its tool. */
export function asMasked(original: JsonRpcMessage, masked: unknown): JsonRpcMessage {
  const body =
    masked !== null && typeof masked === 'object' && !Array.isArray(masked)
      ? (masked as Record<string, unknown>)
      : {};
  const envelope: JsonRpcMessage = { ...(body as Partial<JsonRpcMessage>), jsonrpc: '2.0' };
  if (original.id !== undefined) {
    envelope.id = original.id;
  }
  if (original.method !== undefined) {
    envelope.method = original.method;
  }
  return envelope;
}
