import { parentPort } from 'node:worker_threads';

import { SegmentJob, walkSegment } from './chain-segment';

/** A verification worker thread (A14): walks the segments it is sent, in the order sent. */
parentPort?.on('message', ({ id, job }: { id: number; job: SegmentJob }) => {
  try {
    parentPort?.postMessage({ id, state: walkSegment(job) });
  } catch (error) {
    parentPort?.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
