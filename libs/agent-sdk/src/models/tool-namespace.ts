export function toolNamespace(serverName: string, mcpServerId: string): string {
  const name = serverName.replace(/[^A-Za-z0-9_-]/g, '_').replace(/[_-]+$/, '');
  const id = mcpServerId.slice(0, 8).replace(/[^A-Za-z0-9_-]/g, '_');
  return ['mcp', name, id]
    .filter((part) => part.length > 0)
    .join('_')
    .replace(/[_-]+$/, '');
}

export function namespacedToolName(namespace: string, toolName: string): string {
  return `${namespace}__${toolName}`;
}
