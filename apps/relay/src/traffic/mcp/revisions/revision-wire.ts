import { IncomingHttpHeaders } from 'node:http';

import { JsonRpcMessage } from '../json-rpc';

/** The stateless revision (server/discover, `_meta` envelopes, MRTR, `subscriptions/listen`). */
export const MODERN_REVISION = '2026-07-28';
/** The newest session revision (initialize, sessions, server-initiated requests, GET streams). */
export const LEGACY_REVISION = '2025-11-25';
const LEGACY_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', LEGACY_REVISION];

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/** 2026-07-28: a request's log level; absent, the server sends no log message for it (T104). */
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
/** MCP's log levels (RFC 5424 names), the values `logging/setLevel` and the envelope accept. */
export const LOG_LEVELS: readonly string[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';

/** T97: the Mcp-Session-Id the relay mints for a 2025-era client it serves from a 2026 server. */
const SESSION_PREFIX = 'agp-rev1.';

export type Era = 'modern' | 'legacy';

/** What a 2025-era client told the relay at `initialize`, carried in its session id (T97). */
export interface LegacyClient {
  protocolVersion: string;
  clientInfo: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  /** T104: makes each minted session its own, so what the client sets later is its alone. */
  nonce?: string;
}

/** The per-request envelope of a 2026-07-28 request (what `initialize` said once before). */
export interface ModernEnvelope {
  clientInfo?: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  logLevel?: string;
}

export function isModernRevision(version: unknown): boolean {
  return typeof version === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(version)
    ? version >= MODERN_REVISION
    : false;
}

/** The legacy revision the relay answers `initialize` with: the client's own, if it is one. */
export function legacyRevisionFor(requested: unknown): string {
  return typeof requested === 'string' && LEGACY_REVISIONS.includes(requested)
    ? requested
    : LEGACY_REVISION;
}

export function metaOf(message: JsonRpcMessage): Record<string, unknown> | undefined {
  const params = message.params;
  if (!params || Array.isArray(params)) {
    return undefined;
  }
  const meta = params._meta;
  return meta && typeof meta === 'object' && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/**
 * T97: which revision a client speaks on this POST: a request `_meta` naming a 2026 revision, a
 * `server/discover`, or a 2026 `MCP-Protocol-Version` header without a session is modern; the
 * rest (initialize, a session, a 2025 header, none) is 2025-era.
 */
export function clientEraOf(headers: IncomingHttpHeaders, messages: JsonRpcMessage[]): Era {
  if (typeof headers['mcp-session-id'] === 'string') {
    return 'legacy';
  }
  for (const message of messages) {
    if (message.method === 'server/discover' || message.method === 'subscriptions/listen') {
      return 'modern';
    }
    if (isModernRevision(metaOf(message)?.[META_PROTOCOL_VERSION])) {
      return 'modern';
    }
  }
  const header = headers['mcp-protocol-version'];
  return messages.every((m) => m.method !== 'initialize') && isModernRevision(header)
    ? 'modern'
    : 'legacy';
}

export function isTranslatedSession(headers: IncomingHttpHeaders): boolean {
  const id = headers['mcp-session-id'];
  return typeof id === 'string' && id.startsWith(SESSION_PREFIX);
}

/** Stateless (any replica reads it): the session id is what the client itself declared. */
export function sessionIdOf(client: LegacyClient): string {
  return SESSION_PREFIX + Buffer.from(JSON.stringify(client)).toString('base64url');
}

export function legacyClientOf(headers: IncomingHttpHeaders): LegacyClient | undefined {
  const id = headers['mcp-session-id'];
  if (typeof id !== 'string' || !id.startsWith(SESSION_PREFIX)) {
    return undefined;
  }
  try {
    const value = JSON.parse(
      Buffer.from(id.slice(SESSION_PREFIX.length), 'base64url').toString('utf8'),
    ) as Partial<LegacyClient>;
    return {
      protocolVersion: legacyRevisionFor(value.protocolVersion),
      clientInfo: objectOr(value.clientInfo),
      capabilities: objectOr(value.capabilities),
    };
  } catch {
    return undefined;
  }
}

export function envelopeOf(message: JsonRpcMessage): ModernEnvelope {
  const meta = metaOf(message) ?? {};
  const info = meta[META_CLIENT_INFO];
  const level = meta[META_LOG_LEVEL];
  return {
    capabilities: objectOr(meta[META_CLIENT_CAPABILITIES]),
    ...(info && typeof info === 'object' ? { clientInfo: info as Record<string, unknown> } : {}),
    ...(typeof level === 'string' && LOG_LEVELS.includes(level) ? { logLevel: level } : {}),
  };
}

/** A 2025-era request as 2026-07-28 carries it: the envelope in `_meta` (T97). */
export function withEnvelope(
  message: JsonRpcMessage,
  client: LegacyClient,
  logLevel?: string,
): JsonRpcMessage {
  const params = message.params && !Array.isArray(message.params) ? message.params : {};
  const meta = objectOr(params._meta);
  return {
    ...message,
    params: {
      ...params,
      _meta: {
        ...meta,
        [META_PROTOCOL_VERSION]: MODERN_REVISION,
        [META_CLIENT_INFO]: client.clientInfo,
        [META_CLIENT_CAPABILITIES]: client.capabilities,
        ...(logLevel ? { [META_LOG_LEVEL]: logLevel } : {}),
      },
    },
  };
}

/**
 * T104: a 2025 server's log message for a 2026 request that set no log level: 2026-07-28 has the
 * server send none then, so the relay, speaking 2026 to the client, does not pass it on.
 */
export function isUnaskedLog(message: JsonRpcMessage, request: JsonRpcMessage): boolean {
  return message.method === 'notifications/message' && envelopeOf(request).logLevel === undefined;
}

/** A 2026 request as a session revision carries it: without the envelope keys in `_meta`. */
export function withoutEnvelope(message: JsonRpcMessage): JsonRpcMessage {
  const params = message.params;
  if (!params || Array.isArray(params)) {
    return message;
  }
  const meta = Object.entries(objectOr(params._meta)).filter(
    ([key]) => !key.startsWith(ENVELOPE_PREFIX),
  );
  const { _meta: _dropped, ...rest } = params;
  return {
    ...message,
    params: meta.length > 0 ? { ...rest, _meta: Object.fromEntries(meta) } : rest,
  };
}

/**
 * T96: the 2026-07-28 request headers (Streamable HTTP, Request Metadata): `Mcp-Method` always,
 * `Mcp-Name` from `params.name` or `params.uri`, Base64 sentinel when not plain ASCII.
 */
export function modernHeadersOf(message: JsonRpcMessage): Record<string, string> {
  const headers: Record<string, string> = {
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': message.method ?? '',
  };
  const name = nameOf(message);
  if (name !== undefined) {
    headers['mcp-name'] = headerValueOf(name);
  }
  return headers;
}

const NAMED_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

export function nameOf(message: JsonRpcMessage): string | undefined {
  if (!message.method || !NAMED_METHODS.has(message.method)) {
    return undefined;
  }
  const params = message.params && !Array.isArray(message.params) ? message.params : {};
  const value = message.method === 'resources/read' ? params.uri : params.name;
  return typeof value === 'string' ? value : undefined;
}

export function headerValueOf(value: string): string {
  const plain =
    /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) &&
    !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A header value as the body holds it: the Base64 sentinel decoded, or undefined if malformed. */
export function decodedHeaderValue(value: string): string | undefined {
  const match = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (match) {
    return Buffer.from(match[1], 'base64').toString('utf8');
  }
  if (value.startsWith('=?base64?')) {
    return undefined;
  }
  return /^[\x20-\x7e\t]*$/.test(value) ? value.trim() : undefined;
}

export function objectOr(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
