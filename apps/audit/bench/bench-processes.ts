import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
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
    ? [
        '-r',
        join(APP_DIR, 'scripts', 'resolve-precompiled.js'),
        join(precompiled, 'apps', 'audit', entry.replace(/\.ts$/, '.js')),
      ]
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
      const line = chunk
        .toString()
        .split('\n')
        .find((l) => l.startsWith('ready'));
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
  const kib = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** CPU time (user + system) a process has used so far, in seconds. */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU time (user + system, seconds) of every running process for which `matches(command name,
 * command line)` holds: a server's share of a benchmark. A process that exits in between takes
 * its share with it, so read this around work done by long-lived processes.
 */
export function cpuSecondsOfProcesses(matches: (comm: string, cmdline: string) => boolean): number {
  let seconds = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (matches(comm, readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) {
        seconds += cpuSecondsOf(Number(pid));
      }
    } catch {
      // The process ended while the list was read.
    }
  }
  return seconds;
}

/** PostgreSQL's share: the backends serving one database, and the WAL writer they all use. */
export function cpuSecondsOfPostgres(database: string): number {
  return cpuSecondsOfProcesses(
    (comm, cmdline) =>
      comm === 'postgres' && (cmdline.includes(` ${database} `) || cmdline.includes('walwriter')),
  );
}

/** Where the CPU of a piece of work went, per event, by process: call `take` before and after. */
export class CpuShares {
  private readonly before: Record<string, number>;

  constructor(private readonly processes: Record<string, () => number>) {
    this.before = this.sample();
  }

  private sample(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.processes).map(([name, read]) => [name, read()]));
  }

  /** `name 12.3 µs · …` per event, with the total. */
  perEvent(events: number): string {
    const after = this.sample();
    const shares = Object.keys(this.processes).map(
      (name) => [name, (((after[name] ?? 0) - (this.before[name] ?? 0)) * 1e6) / events] as const,
    );
    const total = shares.reduce((sum, [, micros]) => sum + micros, 0);
    return `${shares.map(([name, micros]) => `${name} ${micros.toFixed(1)}`).join(' · ')} · total ${total.toFixed(1)} µs`;
  }
}
