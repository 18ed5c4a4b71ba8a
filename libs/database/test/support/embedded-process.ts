import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Runs `body` (JavaScript, an async function's body over `url`, `pg`, `dataSource(name)` and
 * `connect()`) in a process of its own that embeds PGlite, as the one-process runner does: PGlite
 * loads its WebAssembly through a dynamic import, which jest's module sandbox does not run. The
 * child uses the built `@agp/database` (turbo builds it before `test`). Resolves with what `body`
 * returned; `onUrl` runs in this process while the child serves, before `body` starts.
 */
export async function inEmbeddedProcess<T>(
  body: string,
  onUrl: (url: string) => Promise<void> = () => Promise.resolve(),
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agp-embedded-'));
  const child = spawn(process.execPath, ['-e', script(body)], {
    cwd: __dirname,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  try {
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const url = (await lines.next()).value as string;
    await onUrl(url);
    child.stdin.end('go\n');
    const result = (await lines.next()).value as string | undefined;
    const [code] = (await exited) as [number];
    if (code !== 0 || result === undefined) {
      throw new Error(`the embedded process exited with ${code}`);
    }
    return JSON.parse(result) as T;
  } finally {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function script(body: string): string {
  return `
    const { once } = require('node:events');
    const pg = require('pg');
    const { DataSource } = require('typeorm');
    const { startEmbeddedPostgres, schemaDataSourceOptions, inProcessStreamFor } = require('@agp/database');
    (async () => {
      const embedded = await startEmbeddedPostgres(process.env.DATA_DIR);
      const url = embedded.url;
      console.log(url);
      await once(process.stdin, 'data');
      const opened = [];
      const dataSource = async (name) => {
        const source = new DataSource(schemaDataSourceOptions({ url, schema: 'public', entities: [], migrations: [], applicationName: name }));
        opened.push(source);
        return source.initialize();
      };
      const connect = async () => {
        const client = new pg.Client({ connectionString: url, ...inProcessStreamFor(url) });
        await client.connect();
        return client;
      };
      const result = await (async () => { ${body} })();
      await Promise.all(opened.map((source) => source.destroy()));
      await embedded.stop();
      console.log(JSON.stringify(result ?? null));
    })().catch((error) => { console.error(error); process.exit(1); });
  `;
}
