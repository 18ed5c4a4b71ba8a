import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import * as settings from '../src/monitors/engine/detector-settings';
import * as errorRate from '../src/monitors/engine/detectors/error-rate-detectors';
import * as lean from '../src/monitors/engine/detectors/own-window-lean';
import * as rate from '../src/monitors/engine/detectors/rate-detectors';
import * as sustained from '../src/monitors/engine/detectors/sustained-windows';

/** The count and share detectors a quality replay runs, from one tree of the engine. */
export interface Engine {
  settings: typeof settings;
  rate: typeof rate;
  errorRate: typeof errorRate;
  sustained: typeof sustained;
  lean: typeof lean;
}

export const WORKING_ENGINE: Engine = { settings, rate, errorRate, sustained, lean };

const ENGINE_PATH = 'apps/audit/src/monitors/engine';

/**
 * The engine as it is at `ref` (default: main), so that a quality run scores main's detectors
 * beside the working tree's on the same trace. The engine is pure (A20: it imports only itself and
 * `@agp/contracts`), so its files alone, extracted at that commit, run as they ran there.
 */
export function engineAt(ref = process.env.BENCH_BASE_REF ?? 'main'): {
  engine: Engine;
  commit: string;
} {
  const repo = resolve(__dirname, '..', '..', '..');
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: repo })
    .toString()
    .trim();
  const dir = join(tmpdir(), `agp-engine-${commit}`);
  if (!existsSync(join(dir, ENGINE_PATH))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', commit, ENGINE_PATH], {
      cwd: repo,
      maxBuffer: 1 << 28,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (file: string): unknown => require(join(dir, ENGINE_PATH, file));
  return {
    commit,
    engine: {
      settings: load('detector-settings.ts') as Engine['settings'],
      rate: load('detectors/rate-detectors.ts') as Engine['rate'],
      errorRate: load('detectors/error-rate-detectors.ts') as Engine['errorRate'],
      sustained: load('detectors/sustained-windows.ts') as Engine['sustained'],
      lean: load('detectors/own-window-lean.ts') as Engine['lean'],
    },
  };
}
