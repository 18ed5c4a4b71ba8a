// Shared jest settings. Sources are compiled by SWC (decorator metadata on, for NestJS and
// TypeORM); `@agp/<lib>` imports resolve to the lib's sources so specs never need a build first.
const path = require('node:path');

const fs = require('node:fs');

const repoDir = path.resolve(__dirname, '..', '..');
const CONFIG_ONLY = new Set(['tsconfig', 'jest-config', 'eslint-config']);

/** `@agp/<name>` → the package's sources, for every lib and app of the workspace. */
function sourceMapper() {
  const mapper = {};
  for (const group of ['libs', 'apps']) {
    for (const name of fs.readdirSync(path.join(repoDir, group))) {
      if (!CONFIG_ONLY.has(name)) {
        mapper[`^@agp/${name}$`] = path.join(repoDir, group, name, 'src');
        // Subpath exports (`@agp/http/openapi-generator`) → the source of the file they name.
        const manifest = require(path.join(repoDir, group, name, 'package.json'));
        for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
          const file = typeof target === 'string' ? target : target.default;
          if (subpath !== '.' && typeof file === 'string') {
            mapper[`^@agp/${name}/${subpath.slice(2)}$`] = path.join(
              repoDir,
              group,
              name,
              file.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'),
            );
          }
        }
      }
    }
  }
  return mapper;
}

const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

/**
 * ESM-only packages (openid-client and what it imports) that the app loads with Node's
 * require(esm); jest's own loader cannot, so SWC compiles them to CommonJS like our sources.
 */
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose'];

/** @param {{ kind?: 'unit' | 'e2e', testTimeout?: number }} [options] */
function createJestConfig(options = {}) {
  const kind = options.kind ?? 'unit';
  return {
    testEnvironment: 'node',
    setupFiles: [require.resolve('reflect-metadata')],
    transform: { '^.+\\.(t|j)s$': swcTransform },
    // ES-module-only packages are compiled like ours; the A2A SDK's CommonJS build requires its own
    // jose 6, which ships ES modules only.
    transformIgnorePatterns: [
      `/node_modules/(?!(${[...ESM_ONLY, '@a2a-js/sdk/node_modules/jose'].join('|')})/)`,
    ],
    moduleNameMapper: sourceMapper(),
    testRegex: kind === 'e2e' ? 'test/.*\\.e2e-spec\\.ts$' : '(src|tools)/.*\\.spec\\.ts$',
    rootDir: process.cwd(),
    testTimeout: options.testTimeout ?? (kind === 'e2e' ? 60_000 : 20_000),
    maxWorkers: kind === 'e2e' ? 1 : '50%',
    reporters: ['default', [path.join(__dirname, 'summary-reporter.js'), { kind }]],
  };
}

module.exports = { createJestConfig };
