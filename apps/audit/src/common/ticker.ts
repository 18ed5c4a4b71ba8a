import { Logger } from 'pino';

/**
 * Runs scheduled work every `intervalMs` in this replica. Once-per-tick across replicas is the
 * work's own concern (an advisory lock in its transaction); a tick never overlaps the previous one.
 */
export class Ticker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private isStopped = true;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.isStopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.isStopped) {
      return;
    }
    this.timer = setTimeout(() => {
      this.running = this.work()
        .then(() => undefined)
        .catch((error: unknown) =>
          this.logger.error({ err: error, job: this.name }, 'scheduled work failed'),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }
}
