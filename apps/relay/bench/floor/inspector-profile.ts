import { writeFileSync } from 'node:fs';

import { WebSocket } from 'undici';

/**
 * A CPU profile of a running process over its inspector (`--inspect`), for `seconds` of the
 * steady phase (issue 31 item 5): unlike `--cpu-prof`, it needs no clean exit of the process.
 */
export async function profileOverInspector(
  inspectPort: number,
  seconds: number,
  out: string,
): Promise<void> {
  const targets = (await (
    await fetch(`http://127.0.0.1:${inspectPort}/json/list`)
  ).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event: { data: unknown }) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    }
  };
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 1000 });
  await send('Profiler.start');
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const { profile } = (await send('Profiler.stop')) as { profile: unknown };
  writeFileSync(out, JSON.stringify(profile));
  socket.close();
}
