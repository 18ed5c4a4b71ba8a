import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => Promise<void>;

export type ReadinessState = 'up' | 'down';

/** A registry, because Nest has no multi-providers. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  async run(timeoutMs = 2_000): Promise<Record<string, ReadinessState>> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await probe(check, timeoutMs)] as const),
    );
    return Object.fromEntries(entries);
  }
}

async function probe(check: ReadinessCheck, timeoutMs: number): Promise<ReadinessState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), timeoutMs);
  });
  try {
    return await Promise.race([check().then(() => 'up' as const), timeout]);
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
