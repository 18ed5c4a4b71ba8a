// Runs TypeScript sources without a build, the way jest does (SWC, decorator metadata on), for
// processes that tests and the benchmark start: the audit ingest process of the fault test and
// `npm run bench`. `@agp/<name>` resolves to the package's sources, as in jest.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const repoDir = path.resolve(__dirname, '..', '..', '..');
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function resolveAgp(request, parent, ...rest) {
  const match = /^@agp\/([a-z0-9-]+)$/.exec(request);
  if (match) {
    for (const group of ['libs', 'apps']) {
      const entry = path.join(repoDir, group, match[1], 'src', 'index.ts');
      if (fs.existsSync(entry)) {
        return entry;
      }
    }
  }
  return resolveFilename.call(this, request, parent, ...rest);
};

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: false,
  });
  module._compile(code, filename);
};
