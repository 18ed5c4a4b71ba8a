import { randomUUID } from 'node:crypto';

import { JsonRpcMessage } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpHops } from '../mcp-hops';
import { UpstreamFailure, serverLabel } from '../mcp-upstream';
import { McpServerEras, readAnswer } from './server-eras';
import { LEGACY_REVISION, ModernEnvelope, objectOr } from './revision-wire';

/** A session the relay opened on a 2025-era server for a 2026-07-28 client's one request (T98). */
export interface LegacySession {
  headers: Record<string, string>;
  result: Record<string, unknown>;
}

const RELAY_CLIENT = { name: 'agp-relay', version: '1.0.0' };

/** initialize, then notifications/initialized, with the client's own envelope (T98). */
export async function openLegacySession(
  eras: McpServerEras,
  call: McpCall,
  envelope: ModernEnvelope,
): Promise<LegacySession> {
  const initialize: JsonRpcMessage = {
    jsonrpc: '2.0',
    id: `agp-init-${randomUUID()}`,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY_REVISION,
      capabilities: envelope.capabilities,
      clientInfo: envelope.clientInfo ?? RELAY_CLIENT,
    },
  };
  const answer = await eras.send(call, 'POST', {}, initialize);
  const session = answer.headers['mcp-session-id'];
  const message = await readAnswer(answer);
  const result = objectOr(message?.result);
  if (answer.statusCode >= 300 || typeof result.protocolVersion !== 'string') {
    throw new UpstreamFailure(
      502,
      `${serverLabel(call.route.server)} refused the relay's initialize (HTTP ${answer.statusCode})`,
    );
  }
  const headers: Record<string, string> = { 'mcp-protocol-version': result.protocolVersion };
  if (typeof session === 'string') {
    headers['mcp-session-id'] = session;
  }
  const initialized = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };
  await (await eras.send(call, 'POST', headers, initialized)).body.dump();
  return { headers, result };
}

/** DELETE ends it; a server that keeps no sessions answers 405, which is as good. */
export function closeLegacySession(
  eras: McpServerEras,
  call: McpCall,
  session: LegacySession,
): void {
  if (session.headers['mcp-session-id'] === undefined) {
    return;
  }
  eras
    .send(call, 'DELETE', session.headers)
    .then((answer) => answer.body.dump())
    .catch(() => undefined);
}

/**
 * T104: a request the relay makes in a session for the agent (a `_meta` log level as
 * `logging/setLevel`, a listen's URI as `resources/subscribe`): judged as the agent's request
 * (refused: not sent), the server's answer a judged hop that goes no further.
 */
export async function sendJudgedInSession(
  eras: McpServerEras,
  hops: McpHops,
  call: McpCall,
  session: LegacySession,
  method: string,
  params: Record<string, unknown>,
): Promise<void> {
  const request: JsonRpcMessage = { jsonrpc: '2.0', id: `agp-${randomUUID()}`, method, params };
  const judged = await hops.judgeFromAgent(call, request);
  await judged.audited;
  if (!judged.forward) {
    return;
  }
  const reply = await readAnswer(await eras.send(call, 'POST', session.headers, judged.forward));
  if (reply) {
    await (
      await hops.judgeFromServer(call, reply, { method })
    ).audited;
  }
}
