import { ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';

/** The official MCP conformance suite's CLI, runnable on this project's Node.js 20 (conformance/fs-glob-shim.mjs). */
export function startConformance(args: string[]): { child: ChildProcess; output: () => string } {
  const suite = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(__dirname, '..', '..', 'conformance', 'register-fs-glob.mjs'),
      join(suite, 'dist', 'index.js'),
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/** The exit code once the CLI ends. */
export function exitOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve(child.exitCode);
      return;
    }
    child.on('exit', (code) => resolve(code ?? 1));
  });
}
