import { JsonRpcMessage } from '../json-rpc';
import { META_SERVER_INFO, MODERN_REVISION, objectOr } from './revision-wire';

/** SEP-2549: results a 2026 client may cache, which must say for how long and for whom. */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A 2025 result as 2026-07-28 answers it: `resultType` "complete" (SEP-2322) and, on a cacheable
 * result, `ttlMs` 0 and `cacheScope` "private" (T98: what an agent is shown is its own, filtered
 * by its grant, and a 2025 server said nothing about freshness).
 */
export function completed(reply: JsonRpcMessage, request: JsonRpcMessage): JsonRpcMessage {
  if (reply.result === undefined || reply.error !== undefined) {
    return { ...reply, id: request.id };
  }
  const cache = CACHEABLE.has(request.method ?? '') ? { ttlMs: 0, cacheScope: 'private' } : {};
  return {
    ...reply,
    id: request.id,
    result: { resultType: 'complete', ...cache, ...objectOr(reply.result) },
  };
}

/** T98: `server/discover` answered from the server's InitializeResult. */
export function discoverResultOf(
  request: JsonRpcMessage,
  initialized: Record<string, unknown>,
): JsonRpcMessage {
  const serverInfo = objectOr(initialized.serverInfo);
  return {
    jsonrpc: '2.0',
    id: request.id,
    result: {
      resultType: 'complete',
      supportedVersions: [MODERN_REVISION],
      capabilities: objectOr(initialized.capabilities),
      ...(typeof initialized.instructions === 'string'
        ? { instructions: initialized.instructions }
        : {}),
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { [META_SERVER_INFO]: serverInfo },
    },
  };
}
