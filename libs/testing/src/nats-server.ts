import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NATS_SERVER_BINARY = process.env.NATS_SERVER_BINARY ?? '/usr/sbin/nats-server';

export interface NatsServerOptions {
  /** Default: a free port chosen now; pass the previous one to restart on the same address. */
  port?: number;
  /** JetStream storage; pass the previous one to restart with the same streams and consumers. */
  storeDir?: string;
}

/** A nats-server of a test's own, for fault tests that stop and restart it (never the shared one). */
export interface TestNatsServer {
  url: string;
  port: number;
  storeDir: string;
  pid: number;
  /** SIGTERM, resolved once the process has exited. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}

async function waitUntilListening(
  port: number,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`nats-server exited with ${child.exitCode}: ${output()}`);
    }
    if (await accepts(port)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`nats-server did not listen on ${port}: ${output()}`);
}

/** Restart with the same `port` and `storeDir` to keep the streams (D5). */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<TestNatsServer> {
  const port = options.port ?? (await freePort());
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'agp-nats-'));
  const child = spawn(
    NATS_SERVER_BINARY,
    ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) {
      resolve();
    }
    child.once('exit', () => resolve());
  });
  try {
    await waitUntilListening(port, child, () => log);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
    }
    await exited;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    pid: child.pid ?? 0,
    stop,
    destroy: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
