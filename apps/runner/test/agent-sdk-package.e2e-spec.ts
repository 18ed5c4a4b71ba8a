import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { McpTestServer, startMcpTestServer } from '@agp/testing';

import { registerAgent } from './agent-sdk/sdk-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

const run = promisify(execFile);
const REPO_DIR = path.resolve(__dirname, '..', '..', '..');
const SDK_DIR = path.join(REPO_DIR, 'libs', 'agent-sdk');
/** The packages a user's `npm install @agp/agent-sdk` brings (its dependencies), and Node's types. */
const INSTALLED_WITH_IT = [
  ...Object.keys(
    (
      JSON.parse(readFileSync(path.join(SDK_DIR, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies,
  ),
  '@types/node',
];

/** The first ```ts block under the README's "Quick start". */
async function readmeQuickStart(): Promise<string> {
  const readme = await readFile(path.join(SDK_DIR, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) {
    throw new Error('the README has no ts block under "Quick start"');
  }
  return block;
}

/**
 * Issue 14 § 2: the library as `npm publish` would ship it (`npm pack`), unpacked into an empty
 * project beside only its own dependencies: both module systems load it, and the README's quick
 * start type-checks against the packed types and runs against the embedded default.
 */
describe('the packed @agp/agent-sdk', () => {
  let project: string;
  let files: string[];

  beforeAll(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'agp-sdk-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], {
      cwd: SDK_DIR,
    });
    const [packed] = JSON.parse(stdout) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    files = packed?.files.map((f) => f.path) ?? [];
    const installed = path.join(project, 'node_modules', '@agp', 'agent-sdk');
    await mkdir(installed, { recursive: true });
    await run('tar', [
      ...['-xzf', path.join(project, packed?.filename ?? ''), '-C', installed],
      '--strip-components=1',
    ]);
    for (const name of INSTALLED_WITH_IT) {
      await mkdir(path.dirname(path.join(project, 'node_modules', name)), { recursive: true });
      await symlink(
        path.join(REPO_DIR, 'node_modules', name),
        path.join(project, 'node_modules', name),
      );
    }
  });

  afterAll(async () => {
    if (project) {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('should ship ESM and CommonJS with types for every entry, the README and the example, and no sources', () => {
    const entries = ['index', 'server', 'vercel-ai', 'openai-agents'];

    for (const entry of entries) {
      for (const extension of ['.js', '.mjs', '.d.ts', '.d.mts']) {
        expect(files).toContain(`dist/${entry}${extension}`);
      }
    }
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'examples/governed-agent.ts']),
    );
    expect(files.filter((f) => f.startsWith('src/') || /\.spec\./.test(f))).toEqual([]);
  });

  it('should load with the same exports from CommonJS and ES modules and name no workspace package', async () => {
    const cjs = await run(
      process.execPath,
      ['-e', 'console.log(JSON.stringify(Object.keys(require("@agp/agent-sdk")).sort()))'],
      { cwd: project },
    );
    const esm = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        'const m = await import("@agp/agent-sdk"); console.log(JSON.stringify(Object.keys(m).sort()))',
      ],
      { cwd: project },
    );
    const manifest = JSON.parse(
      await readFile(
        path.join(project, 'node_modules', '@agp', 'agent-sdk', 'package.json'),
        'utf8',
      ),
    ) as Record<string, Record<string, string> | undefined>;

    const names = JSON.parse(cjs.stdout) as string[];
    expect(JSON.parse(esm.stdout)).toEqual(names);
    expect(names).toEqual(
      expect.arrayContaining(['AgentClient', 'A2AClientFactory', 'AgentRuntime', 'verifyWebhook']),
    );
    const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
    expect(dependencies.filter((name) => name.startsWith('@agp/'))).toEqual([]);
  });

  describe('its README quick start', () => {
    let platform: McpPlatform;
    let tools: McpTestServer;
    let world: McpWorld;

    beforeAll(async () => {
      platform = await startMcpPlatform('embedded');
      tools = await startMcpTestServer();
      world = await McpWorld.create(platform);
    });

    afterAll(async () => {
      await tools?.close();
      await platform?.close();
    });

    it('should type-check against the packed types, then list the tools and call echo through the relay', async () => {
      await writeFile(path.join(project, 'quickstart.mts'), await readmeQuickStart());
      const agent = await registerAgent(world);
      await world.subscribe(agent.id, await world.mcpServer(tools.url), [
        'echo',
        'lookup_customer',
      ]);

      await run(
        process.execPath,
        [
          path.join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc'),
          // The block's own code is checked against the packed types; the libraries' are not.
          ...['--strict', '--skipLibCheck', '--module', 'nodenext', '--target', 'es2022'],
          ...['--types', 'node'],
          ...['--outDir', 'out', 'quickstart.mts'],
        ],
        { cwd: project },
      );
      const { stdout } = await run(process.execPath, [path.join('out', 'quickstart.mjs')], {
        cwd: project,
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          SVC_AGENT_ID: agent.id,
          SVC_CLIENT_SECRET: agent.secret,
          SVC_BASE_URL: platform.baseUrl,
          SVC_TOKEN_URL: `${platform.baseUrl}/tenant-auth/v1/oauth/token`,
        },
      });

      expect(stdout).toMatch(/^\[\s*'echo',\s*'lookup_customer'\s*\]$/m);
      expect(stdout).toContain('{"received":{"text":"hello"}}');
      expect(tools.calls.filter((c) => c.tool === 'echo')).toEqual([
        expect.objectContaining({ arguments: { text: 'hello' } }),
      ]);
    }, 180_000);
  });
});
