/** R10, D37: `SSE` (2024-11-05) is named only so registering it gets a clear 400; D52: VIRTUAL. */
export const MCP_TRANSPORTS = ['STREAMABLE_HTTP', 'VIRTUAL'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];
export const MCP_SERVERS_CATALOG = Symbol('relay:mcp-servers-catalog');

export const TRANSPORT_MESSAGE =
  'transport must be STREAMABLE_HTTP or VIRTUAL (D52): the relay speaks MCP Streamable HTTP only, so a server offering only the SSE transport cannot be registered';

/** D52: a virtual server composes at most this many members. */
export const MAX_VIRTUAL_MEMBERS = 20;

/** D37: an MCP server's request timeout, in milliseconds. */
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 300_000;

/** Headers the relay sets itself on every upstream request: no credential may take their place. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'keep-alive',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-correlation-id',
]);
