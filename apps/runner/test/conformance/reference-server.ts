import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

import { eventually, freePort } from '@agp/testing';

export interface ReferenceServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The conformance suite's own reference server (its repository's
 * `examples/servers/typescript/everything-server.ts`, vendored unchanged under
 * `conformance/reference-server/`): the npm package ships the suite, not the server.
 */
export async function startReferenceServer(): Promise<ReferenceServer> {
  const port = await freePort();
  const file = join(
    __dirname,
    '..',
    '..',
    'conformance',
    'reference-server',
    'everything-server.mts',
  );
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(() => {
    if (child.exitCode !== null) {
      throw new Error(`the reference server stopped: ${output}`);
    }
    expect(output).toContain('MCP endpoint');
  }, 600);
  return {
    // `localhost`, as the suite's README runs it: its DNS-rebinding check names this host.
    url: `http://localhost:${port}/mcp`,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
