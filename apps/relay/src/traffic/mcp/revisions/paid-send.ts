import { PaidCall } from '../../payments/paid-call';
import { readBodyWithin } from '../../pipeline/upstream-body';
import { JsonRpcMessage } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { MAX_UPSTREAM_MESSAGE_BYTES, UpstreamAnswer, failureOf } from '../mcp-upstream';
import { McpServerEras } from './server-eras';

/** The server's answer to a translated request, or the 402 the agent pays (payments.md PY19). */
export type PaidSent =
  | { kind: 'answer'; answer: UpstreamAnswer; headers: Record<string, string> }
  | { kind: 'required'; answer: McpAnswer };

/**
 * PY19: a translated request goes to the server with the agent's judged payment, as an
 * untranslated one does (PY3); a 402 with requirements is recorded and handed back as the server
 * wrote it, a forwarded payment's settlement recorded and its headers kept for the agent's answer.
 */
export async function sendPaid(
  eras: McpServerEras,
  call: McpCall,
  headers: Record<string, string>,
  request: JsonRpcMessage,
  signal: AbortSignal,
  paid?: PaidCall,
  /** T102: a call that may be held while a person answers listens rather than times out. */
  options: { isListening?: boolean } = {},
): Promise<PaidSent> {
  let answer: UpstreamAnswer;
  await paid?.sending();
  try {
    answer = await eras.send(call, 'POST', headers, request, {
      signal,
      ...options,
      ...paid?.upstreamHeader(),
    });
  } catch (error) {
    await paid?.unanswered(failureOf(error, call.route.server).message);
    throw error;
  }
  const x402 = (await paid?.answered(answer.statusCode, answer.headers)) ?? {};
  if (answer.statusCode === 402 && paid) {
    const body = await readBodyWithin(
      answer,
      MAX_UPSTREAM_MESSAGE_BYTES,
      () => new Error('too large'),
    ).catch(() => '');
    const required = await paid.required(answer.headers, body);
    if (!required) {
      throw new Error('the server answered HTTP 402 without x402 payment requirements');
    }
    return {
      kind: 'required',
      answer: { kind: 'raw', status: 402, body, headers: { ...x402, ...required } },
    };
  }
  return { kind: 'answer', answer, headers: x402 };
}
