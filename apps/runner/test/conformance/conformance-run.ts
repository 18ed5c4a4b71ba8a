import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { exitOf, startConformance } from '../mcp-users/conformance-cli';

/** One check of one scenario, as the suite's `checks.json` records it. */
export interface CheckResult {
  scenario: string;
  id: string;
  status: string;
  errorMessage?: string;
}

/** `server --suite all` against `url`: every check of every scenario (both revisions' wires). */
export async function runServerSuite(url: string): Promise<CheckResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  try {
    const { child, output } = startConformance([
      'server',
      '--url',
      url,
      '--suite',
      'all',
      '--output-dir',
      dir,
    ]);
    await exitOf(child);
    const scenarios = await readdir(dir);
    if (scenarios.length === 0) {
      throw new Error(`the conformance suite recorded no scenario:\n${output()}`);
    }
    const results = await Promise.all(scenarios.map((name) => checksOf(dir, name)));
    return results.flat().sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function keyOf(check: Pick<CheckResult, 'scenario' | 'id'>): string {
  return `${check.scenario} / ${check.id}`;
}

/** `server-<scenario>-<ISO time with dashes>`: the scenario's name between the two. */
async function checksOf(dir: string, folder: string): Promise<CheckResult[]> {
  const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
  const text = await readFile(join(dir, folder, 'checks.json'), 'utf8').catch(() => '[]');
  const checks = JSON.parse(text) as { id: string; status: string; errorMessage?: string }[];
  // A check id a scenario records more than once is told apart by its occurrence, in order.
  const seen = new Map<string, number>();
  return checks.map((c) => {
    const occurrence = (seen.get(c.id) ?? 0) + 1;
    seen.set(c.id, occurrence);
    return {
      scenario,
      id: occurrence === 1 ? c.id : `${c.id} (${occurrence})`,
      status: c.status,
      ...(c.errorMessage ? { errorMessage: c.errorMessage } : {}),
    };
  });
}
