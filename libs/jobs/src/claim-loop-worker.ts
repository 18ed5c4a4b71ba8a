import { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';

import { ClaimLoop } from './claim-loop';

/** A Nest provider whose work is a claim loop (F38). */
export abstract class ClaimLoopWorker<T>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  protected abstract readonly loop: ClaimLoop<T>;

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Looks for work now (work added on this replica), not at the next poll. */
  kick(): void {
    this.loop.kick();
  }
}
