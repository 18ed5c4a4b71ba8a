import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, a workspace folder, node's own code, or V8's buckets. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) {
    return functionName.startsWith('(') ? functionName : '(native)';
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    return pkg[1];
  }
  const workspace = /\/(apps|libs)\/([^/]+)\/dist\/(?:src\/)?([^/]+)/.exec(url);
  if (workspace) {
    return `${workspace[1]}/${workspace[2]}/${workspace[3].replace(/\.js$/, '')}`;
  }
  return url.startsWith('node:') ? url : url.replace(/^file:\/\//, '');
}

/** The inspector profiles sample every 1 ms (`inspector-profile.ts`). */
const MAX_SAMPLE_US = 2_000;

/**
 * `node profile-by-module.js <file.cpuprofile> [top]`: self time grouped by module, and the
 * heaviest functions, from a `node --cpu-prof` profile (issue 31: where the remaining time goes).
 */
function main(): void {
  const [file, top = '25'] = process.argv.slice(2);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    // A gap longer than two sampling intervals is the process descheduled (a loaded machine), not
    // CPU spent in the frame it was stopped in: capped, or a stall is charged as work.
    const us = Math.min(profile.timeDeltas[i] ?? 0, MAX_SAMPLE_US);
    // `(program)` is V8's own bookkeeping; under the inspector it is mostly the profiler's, even
    // in an idle process (measured: a whole idle window), so it is left out like `(idle)`.
    if (!node || ['(idle)', '(program)'].includes(node.callFrame.functionName)) {
      return;
    }
    total += us;
    const module = moduleOf(node.callFrame.url, node.callFrame.functionName);
    byModule.set(module, (byModule.get(module) ?? 0) + us);
    const fn = `${module} ${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  const print = (title: string, entries: Map<string, number>): void => {
    console.log(`\n${title} (busy ${(total / 1e6).toFixed(2)} s)`);
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(top))
      .forEach(([name, us]) =>
        console.log(
          `${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
        ),
      );
  };
  print('self time by module', byModule);
  print('self time by function', byFunction);
}

main();
