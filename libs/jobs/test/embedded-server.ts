import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * The embedded PGlite (D2) in a process of its own, as the one-process runner serves it: PGlite
 * loads its WebAssembly through a dynamic import, which jest's module sandbox does not run. The
 * child uses the built `@agp/database` (turbo builds dependencies before `test`).
 */
export async function startEmbeddedServer(
  dataDir: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('@agp/database').startEmbeddedPostgres(process.env.DATA_DIR).then((pg) => {
         console.log(pg.url);
         process.on('SIGTERM', () => void pg.stop().then(() => process.exit(0)));
       });`,
    ],
    {
      cwd: __dirname,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [url] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return {
    url,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
