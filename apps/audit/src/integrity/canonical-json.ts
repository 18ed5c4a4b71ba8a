/**
 * Canonical JSON (A6): object keys sorted by code unit, no whitespace, `undefined` members left
 * out, as JSON.stringify writes strings and numbers. What the chain hashes, so the same event read
 * back from PostgreSQL (jsonb reorders keys) gives the same bytes.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member !== undefined) {
      members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
    }
  }
  return `{${members.join(',')}}`;
}
