import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const APP_DIR = join(__dirname, '..');

/**
 * Starts a TypeScript entry point in its own process; resolves with its `ready …` line. With
 * `precompiled` (bench/precompile.ts) it runs the compiled JavaScript, without a compiler loaded.
 */
export function startProcess(
  entry: string,
  env: Record<string, string>,
  precompiled?: string,
): Promise<{ child: ChildProcess; ready: string[] }> {
  const args = precompiled
    ? ['-r', join(APP_DIR, 'scripts', 'resolve-precompiled.js'), join(precompiled, 'apps', 'audit', entry.replace(/\.ts$/, '.js'))]
    : ['-r', join(APP_DIR, 'scripts', 'register-ts.js'), join(APP_DIR, entry)];
  const child = spawn(process.execPath, args, {
    cwd: APP_DIR,
    env: { ...process.env, ...env, ...(precompiled ? { AGP_PRECOMPILED_DIR: precompiled } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4_000);
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const line = chunk.toString().split('\n').find((l) => l.startsWith('ready'));
      if (line) {
        resolve({ child, ready: line.trim().split(' ').slice(1) });
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${errors}`)));
  });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Resident set size now and at its peak (VmRSS, VmHWM) of a process, in MiB. */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** CPU time (user + system) a process has used so far, in seconds. */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
