/**
 * The namespace of an MCP server's tools (specification, Client-library models):
 * `mcp_<sanitised name>_<first 8 characters of its id>`, where every character other than a letter,
 * digit, `_` or `-` becomes `_`, and no separator trails.
 */
export function toolNamespace(serverName: string, mcpServerId: string): string {
  const name = serverName.replace(/[^A-Za-z0-9_-]/g, '_').replace(/[_-]+$/, '');
  const id = mcpServerId.slice(0, 8).replace(/[^A-Za-z0-9_-]/g, '_');
  return ['mcp', name, id]
    .filter((part) => part.length > 0)
    .join('_')
    .replace(/[_-]+$/, '');
}

/** A tool's name as a framework sees it: the namespace, `__`, then the tool's own name. */
export function namespacedToolName(namespace: string, toolName: string): string {
  return `${namespace}__${toolName}`;
}
