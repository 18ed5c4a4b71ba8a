import { TimeWindow, WINDOW_MINUTES } from '@agp/contracts';

/** Bucket width per window (A10): between 10 and 30 points, each a round duration. */
const BUCKET_SECONDS: Readonly<Record<TimeWindow, number>> = {
  LAST_5M: 30,
  LAST_15M: 60,
  LAST_1H: 300,
  LAST_4H: 900,
  LAST_24H: 3_600,
  LAST_7D: 21_600,
};

export interface WindowFrame {
  from: Date;
  to: Date;
  bucketSeconds: number;
  buckets: Date[];
}

export function frameOf(window: TimeWindow, now: Date): WindowFrame {
  const bucketMs = BUCKET_SECONDS[window] * 1_000;
  const to = new Date(Math.ceil(now.getTime() / bucketMs) * bucketMs);
  const count = Math.round((WINDOW_MINUTES[window] * 60_000) / bucketMs);
  const from = new Date(to.getTime() - count * bucketMs);
  const buckets = Array.from({ length: count }, (_, i) => new Date(from.getTime() + i * bucketMs));
  return { from, to, bucketSeconds: BUCKET_SECONDS[window], buckets };
}
