import { ChildProcess, spawn } from 'node:child_process';

export function startProcess(
  script: string,
  args: string[],
  env: Record<string, string>,
): ChildProcess {
  return spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function waitReady(url: string, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i += 1) {
    try {
      const response = await fetch(url);
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never became ready`);
}
