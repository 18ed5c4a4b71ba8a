import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '@agp/testing';

/** The repository root, from apps/relay/dist-bench/bench/mcp. */
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..', '..');

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Its inspector's port when BENCH_INSPECT names it: profiled during the steady phase. */
  inspectPort?: number;
  /** With BENCH_STATEMENTS=1: where it writes the statements it sent, by their first words. */
  statementsFile?: string;
}

/**
 * One service of the platform as production runs it: its own compiled `main.js` in its own
 * process (D2), so the benchmark measures the deployed shape, gateway hop included.
 */
export async function startService(
  app: string,
  port: number,
  env: Record<string, string>,
  inherited: NodeJS.ProcessEnv = process.env,
): Promise<ServiceProcess> {
  const entry = join(REPO_ROOT, 'apps', app, 'dist', 'main.js');
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: run \`npm run build\` first`);
  }
  const inspectPort = (process.env.BENCH_INSPECT ?? '').split(',').includes(app)
    ? await freePort()
    : undefined;
  const statementsFile =
    process.env.BENCH_STATEMENTS === '1'
      ? join(tmpdir(), `agp-bench-statements-${app}-${port}.json`)
      : undefined;
  const child = spawn(
    process.execPath,
    [
      ...(inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : []),
      ...((process.env.BENCH_CPU_PROFILE ?? '').split(',').includes(app)
        ? ['--cpu-prof', '--cpu-prof-dir=bench-profiles']
        : []),
      ...(statementsFile
        ? ['--require', join(__dirname, '..', 'floor', 'count-statements.js')]
        : []),
      entry,
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...inherited,
        ...env,
        PORT: String(port),
        ...(statementsFile ? { BENCH_STATEMENTS_FILE: statementsFile } : {}),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(app, child, `${url}/health/ready`);
  return { name: app, url, child, inspectPort, statementsFile };
}

/**
 * Waits up to BENCH_READY_SECONDS (300 by default: the one process migrates PGlite, minutes on a
 * loaded machine) for `readyUrl` to answer 2xx; throws with the process's stderr otherwise.
 */
export async function waitUntilAnswering(
  name: string,
  child: ChildProcess,
  readyUrl: string,
): Promise<void> {
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4_000);
  });
  const deadline = Date.now() + Number(process.env.BENCH_READY_SECONDS ?? 300) * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${name} exited with ${child.exitCode}: ${errors}`);
    }
    const ready = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not get ready: ${errors}`);
}

export async function stopService(service: ServiceProcess): Promise<void> {
  if (service.child.exitCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
}

/** D11: the tenant-auth bootstrap command, run as an operator would; the administrator's password. */
export async function bootstrapTenant(
  env: Record<string, string>,
  slug: string,
  out: string,
): Promise<void> {
  const entry = join(REPO_ROOT, 'apps', 'tenant-auth', 'dist', 'bootstrap.js');
  const child = spawn(
    process.execPath,
    [entry, '--tenant', slug, '--email', `admin@${slug}.example`, '--out', out],
    { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) {
    throw new Error(`bootstrap exited with ${code}: ${errors}`);
  }
}

/** CPU time (user + system) a process has used so far, in seconds. */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
