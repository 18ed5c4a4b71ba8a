/** MCP transports the relay can reach a server over (R10). */
export const MCP_TRANSPORTS = ['STREAMABLE_HTTP', 'SSE'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];
export const MCP_SERVERS_CATALOG = Symbol('relay:mcp-servers-catalog');
