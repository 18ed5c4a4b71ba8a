import { existsSync, readFileSync } from 'node:fs';

import { cpuSecondsOf, ServiceProcess } from '../mcp/platform-processes';
import { PostgresCpu } from './postgres-cpu';

/** Every process a comparison reads the CPU of, by name, and PostgreSQL's backends. */
export interface CpuReading {
  processes: Record<string, number>;
  postgres: Map<number, number>;
  /** BENCH_STATEMENTS=1: statements each process has sent so far, by their first words. */
  statements: Record<string, Record<string, number>>;
}

export class ProcessCpu {
  constructor(
    private readonly benchProcess: string,
    private readonly processes: () => ServiceProcess[],
    private readonly postgres: PostgresCpu,
  ) {}

  async read(): Promise<CpuReading> {
    const processes: Record<string, number> = { [this.benchProcess]: cpuSecondsOf(process.pid) };
    const statements: CpuReading['statements'] = {};
    for (const service of this.processes()) {
      processes[service.name] = cpuSecondsOf(service.child.pid!);
      if (service.statementsFile && existsSync(service.statementsFile)) {
        statements[service.name] = JSON.parse(readFileSync(service.statementsFile, 'utf8'));
      }
    }
    return { processes, postgres: await this.postgres.read(), statements };
  }

  /** Statements per call of each process between two readings, the most frequent first (R38). */
  static statementsPerCall(before: CpuReading, after: CpuReading, calls: number): string[] {
    const lines: string[] = [];
    for (const [name, counts] of Object.entries(after.statements)) {
      const sent = Object.entries(counts)
        .map(([text, n]) => [text, n - (before.statements[name]?.[text] ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1]);
      const total = sent.reduce((sum, [, n]) => sum + n, 0);
      if (total === 0) {
        continue;
      }
      lines.push(`  ${name}: ${(total / calls).toFixed(2)} statements per call`);
      sent.forEach(([text, n]) => lines.push(`    ${(n / calls).toFixed(3)}  ${text}`));
    }
    return lines;
  }

  /** Microseconds of CPU per call of each process that worked between the two readings. */
  static perCall(before: CpuReading, after: CpuReading, calls: number): Record<string, number> {
    const used: Record<string, number> = {};
    for (const name of Object.keys(after.processes)) {
      used[name] = after.processes[name] - (before.processes[name] ?? 0);
    }
    used.postgres = PostgresCpu.between(before.postgres, after.postgres);
    const perCall: Record<string, number> = {};
    for (const [name, seconds] of Object.entries(used)) {
      if (seconds > 0) {
        perCall[name] = Math.round((seconds / calls) * 1e6);
      }
    }
    return perCall;
  }

  /**
   * Seconds from now until `service` used under 3 % of a core over a whole second (issue 31 item 4:
   * idle again within seconds of the load stopping); `limitSec` when it never does.
   */
  static async secondsUntilIdle(service: ServiceProcess, limitSec = 60): Promise<number> {
    const start = Date.now();
    const samples: Array<{ at: number; cpu: number }> = [];
    while (Date.now() - start < limitSec * 1000) {
      samples.push({ at: Date.now(), cpu: cpuSecondsOf(service.child.pid!) });
      const windowStart = samples.find((s) => s.at >= Date.now() - 1_000 - 50);
      const last = samples[samples.length - 1];
      if (windowStart && last.at - windowStart.at >= 950 && last.cpu - windowStart.cpu <= 0.03) {
        return Math.max(0, (windowStart.at - start) / 1000);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return limitSec;
  }
}
