// The conformance suite's dist imports `globSync` from `fs`, which Node.js has only from 22; on the
// Node.js 20 of this project's machines its import would fail before any scenario runs. The
// authorization scenarios never call it, so here it exists and says so if it ever is called.
export * from 'node:fs';
import fs from 'node:fs';
export default fs;
export function globSync() {
  throw new Error('fs.globSync needs Node.js 22 (called by the conformance suite)');
}
