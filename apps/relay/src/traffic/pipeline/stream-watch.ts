import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';

import { Admission } from './admission';
import { StreamEnding } from './refusal-answers';
import { REFUSALS } from './refusal-codes';
import { TrafficGuard, killSwitchReason } from './traffic-guard';

/** How often an open stream checks that it may go on (kill switches, subscriptions; T2). */
const STOP_CHECK_MS = 1_000;

/** D32, D35, T2: ends streams within a second; shutdown ends all, so none waits for ever. */
@Injectable()
export class StreamWatch implements BeforeApplicationShutdown {
  private readonly open = new Set<(ending: StreamEnding) => void>();

  constructor(private readonly guard: TrafficGuard) {}

  async stopReason(admission: Admission): Promise<string | undefined> {
    const engaged = await this.guard.killSwitchFor(admission);
    if (engaged) {
      return killSwitchReason(engaged);
    }
    return (await admission.isStillSubscribed())
      ? undefined
      : `the agent is no longer subscribed to ${admission.targetNoun}`;
  }

  /** Watches an open stream until the returned function is called; `stop` hears each ending. */
  watch(admission: Admission, stop: (ending: StreamEnding) => void): () => void {
    const timer = setInterval(() => {
      void this.stopReason(admission).then(
        (reason) => reason && stop({ refusal: REFUSALS.killSwitch, reason }),
        () => undefined,
      );
    }, STOP_CHECK_MS);
    this.open.add(stop);
    return () => {
      clearInterval(timer);
      this.open.delete(stop);
    };
  }

  /** Before the HTTP server closes: it waits for open responses, and a stream never ends alone. */
  beforeApplicationShutdown(): void {
    for (const stop of this.open) {
      stop({
        refusal: REFUSALS.streamIncomplete,
        reason: 'the relay is shutting down; send again',
      });
    }
  }
}
