import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

import { REPO_ROOT, ServiceProcess, waitUntilAnswering } from '../mcp/platform-processes';

/**
 * The floor of a forwarding hop (issue 31 item 2): a bare fastify server that streams each request
 * to one upstream through a keep-alive undici pool and streams the answer back, nothing else. Its
 * own process, so its CPU per call is read like every service's.
 */
export async function startBareHop(upstream: string, port: number): Promise<ServiceProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, 'bare-hop.server.js'), upstream, String(port)],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering('bare hop', child, `${url}/__ready`);
  return { name: 'bare hop', url, child };
}
