import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';

import { REPO_ROOT, ServiceProcess, waitUntilAnswering } from '../mcp/platform-processes';

/**
 * The peer users pick instead (issue 31): Portkey's open-source gateway (npm
 * `@portkey-ai/gateway`), as its own `npx` start runs it, headless, its own process.
 */
export async function startPortkey(port: number): Promise<ServiceProcess> {
  const entry = join(
    dirname(require.resolve('@portkey-ai/gateway/package.json', { paths: [REPO_ROOT] })),
    'build',
    'start-server.js',
  );
  const child = spawn(process.execPath, [entry, `--port=${port}`, '--headless'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering('portkey', child, `${url}/`);
  return { name: 'portkey', url, child };
}

/** The headers that route a call through Portkey to an OpenAI-compatible provider at `baseUrl`. */
export function portkeyHeaders(baseUrl: string): Record<string, string> {
  return { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': baseUrl };
}
