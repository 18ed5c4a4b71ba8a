import { freePort } from '@agp/testing';

import { BenchPlatform, startBenchPlatform } from '../mcp/bench-platform';
import { ServiceProcess, stopService } from '../mcp/platform-processes';
import { startBareHop } from './bare-hop';
import { OneProcess, startOneProcess } from './one-process';

/** What every relay bench compares in one run: the services, the one process, the bare hop. */
export interface ComparedProcesses {
  bench: BenchPlatform;
  oneProcess: OneProcess;
  bareHop: ServiceProcess;
  stop(): Promise<void>;
}

/** Starts them one after another (the machine is small); `upstream` is what the bare hop reaches. */
export async function startComparedProcesses(
  name: string,
  upstream: string,
): Promise<ComparedProcesses> {
  const bench = await startBenchPlatform(name);
  let oneProcess: OneProcess | undefined;
  try {
    oneProcess = await startOneProcess();
    const bareHop = await startBareHop(new URL(upstream).origin, await freePort());
    const started = oneProcess;
    return {
      bench,
      oneProcess: started,
      bareHop,
      stop: async () => {
        await stopService(bareHop);
        await started.stop();
        await bench.stop();
      },
    };
  } catch (error) {
    await oneProcess?.stop();
    await bench.stop();
    throw error;
  }
}
