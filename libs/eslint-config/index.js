// Shared flat config: type-aware, zero warnings (STYLE.md §11).
const fs = require('node:fs');
const path = require('node:path');

const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

const repoDir = path.resolve(__dirname, '..', '..');
/** The one library that talks to NATS (F22, F27). */
const NATS_OWNER = path.join(repoDir, 'libs', 'messaging');

/** `@agp/<name>` of every app of the workspace (each folder of apps/ with a package.json). */
function appPackages() {
  const appsDir = path.join(repoDir, 'apps');
  return fs
    .readdirSync(appsDir)
    .map((folder) => path.join(appsDir, folder, 'package.json'))
    .filter((manifest) => fs.existsSync(manifest))
    .map((manifest) => JSON.parse(fs.readFileSync(manifest, 'utf8')).name);
}

/**
 * F27: an app imports libraries only, never another app (the console reads the services' answers
 * from their generated contracts), and libraries never import apps; only the runner, whose job is
 * to compose the services in one process, says `composesApps`. NATS clients are imported by
 * `libs/messaging` alone. The package's own dependencies are held to the same rule, since they
 * order the build.
 * @param {string} packageDir
 * @param {boolean} composesApps
 */
function boundaryRules(packageDir, composesApps) {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const apps = composesApps ? [] : appPackages().filter((name) => name !== manifest.name);
  const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  const listed = dependencies.filter((name) => apps.includes(name));
  if (listed.length > 0) {
    throw new Error(
      `${manifest.name} depends on ${listed.join(', ')}: an app or library depends on libraries ` +
        'only (F27); the console reads answers from src/api/contracts',
    );
  }
  const patterns = [];
  if (apps.length > 0) {
    patterns.push({
      group: apps.flatMap((name) => [name, `${name}/*`]),
      message:
        'F27: apps and libraries import libraries only, never an app (the runner alone composes ' +
        'the services); the console takes response types from src/api/contracts.',
    });
  }
  if (path.resolve(packageDir) !== NATS_OWNER) {
    patterns.push({
      group: ['@nats-io/*'],
      message:
        'F22, F27: only libs/messaging talks to NATS; ask it for what you need (tests: @agp/messaging/testing).',
    });
  }
  return patterns.length > 0 ? { 'no-restricted-imports': ['error', { patterns }] } : {};
}

/**
 * @param {string} tsconfigRootDir the package's folder
 * @param {{ composesApps?: boolean }} [options] `composesApps`: the package composes the apps
 *   into one process and may import them (the runner alone)
 */
function createEslintConfig(tsconfigRootDir, options = {}) {
  return tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '*.js', '*.mjs', '*.cjs'] },
    js.configs.recommended,
    ...tseslint.configs.recommendedTypeChecked,
    {
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir } },
      rules: {
        eqeqeq: ['error', 'always', { null: 'ignore' }],
        curly: ['error', 'all'],
        '@typescript-eslint/no-explicit-any': 'error',
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/no-misused-promises': 'error',
        '@typescript-eslint/switch-exhaustiveness-check': 'error',
        '@typescript-eslint/no-unused-vars': [
          'error',
          { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
        ],
        '@typescript-eslint/no-extraneous-class': 'off',
        '@typescript-eslint/unbound-method': 'off',
        '@typescript-eslint/require-await': 'off',
        ...boundaryRules(tsconfigRootDir, options.composesApps === true),
      },
    },
    {
      files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
      rules: {
        '@typescript-eslint/no-unsafe-assignment': 'off',
        '@typescript-eslint/no-unsafe-member-access': 'off',
        '@typescript-eslint/no-unsafe-argument': 'off',
        '@typescript-eslint/no-non-null-assertion': 'off',
      },
    },
  );
}

module.exports = { createEslintConfig };
