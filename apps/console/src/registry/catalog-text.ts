/** A catalog field that holds text (the relay's registry entries are loosely typed). */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** D52: a virtual MCP server's members, as the prefixes its items are exposed under. */
export const membersText = (value: unknown): string =>
  Array.isArray(value)
    ? `virtual: ${value.map((m) => text((m as { prefix?: unknown }).prefix)).join(', ')}`
    : '';
