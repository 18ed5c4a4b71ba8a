// For benchmark processes whose memory is measured: runs JavaScript that the benchmark compiled
// ahead (bench/precompile.ts) instead of compiling TypeScript in the process, so the compiler's
// own memory is not counted. `@agp/<name>` resolves to that package's compiled sources.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const root = process.env.AGP_PRECOMPILED_DIR;
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function resolveAgp(request, parent, ...rest) {
  const match = /^@agp\/([a-z0-9-]+)$/.exec(request);
  if (match && root) {
    for (const group of ['libs', 'apps']) {
      const entry = path.join(root, group, match[1], 'src', 'index.js');
      if (fs.existsSync(entry)) {
        return entry;
      }
    }
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
