/** A piece of a time window inside one hour row: minutes `lo`..`hi` (1-based, inclusive). */
export interface WindowSegment {
  hour: Date;
  lo: number;
  hi: number;
  day: number;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export function floorMinute(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

/** M6: Saturday and Sunday, in UTC, have their own baseline. */
export function isWeekend(at: Date): boolean {
  const day = at.getUTCDay();
  return day === 0 || day === 6;
}

// The hour-row pieces of the window [end - minutes, end) and of the same window `day` days earlier,
// for each day in `days` (0 is the recent window itself), baseline days widened by `extendMinutes`
// on each side (M18).
export function windowSegments(
  end: Date,
  minutes: number,
  days: readonly number[],
  extendMinutes = 0,
  parts = 1,
): WindowSegment[] {
  const segments: WindowSegment[] = [];
  const slots = Math.max(0, ...days) + 1;
  for (const day of days) {
    // M6: a baseline day's window is widened on both sides (a linear trend cancels out).
    const extend = day === 0 ? 0 : extendMinutes * MINUTE_MS;
    const stop = end.getTime() - day * DAY_MS + extend;
    const start = stop - minutes * MINUTE_MS - 2 * extend;
    const pieces = day === 0 ? 1 : parts;
    const width = (stop - start) / MINUTE_MS;
    for (let part = 0; part < pieces; part += 1) {
      const from = start + Math.round((width * part) / pieces) * MINUTE_MS;
      const to = start + Math.round((width * (part + 1)) / pieces) * MINUTE_MS;
      segments.push(...hourPieces(from, to, part * slots + day));
    }
  }
  return segments;
}

function hourPieces(start: number, stop: number, day: number): WindowSegment[] {
  const segments: WindowSegment[] = [];
  while (start < stop) {
    const hour = Math.floor(start / HOUR_MS) * HOUR_MS;
    const pieceEnd = Math.min(stop, hour + HOUR_MS);
    segments.push({
      hour: new Date(hour),
      lo: (start - hour) / MINUTE_MS + 1,
      hi: (pieceEnd - hour) / MINUTE_MS,
      day,
    });
    start = pieceEnd;
  }
  return segments;
}

// M6: the baseline days of a window starting at `windowStart`: those of the last `lookbackDays`
// that are of the same kind (weekday or weekend) and come after the subject was first seen.
export function baselineDays(
  windowStart: Date,
  lookbackDays: number,
  firstSeen: Date | undefined,
): number[] {
  const eligible: number[] = [];
  for (let day = 1; day <= lookbackDays; day += 1) {
    if (!firstSeen || windowStart.getTime() - day * DAY_MS >= firstSeen.getTime()) {
      eligible.push(day);
    }
  }
  const weekend = isWeekend(windowStart);
  const sameKind = eligible.filter(
    (day) => isWeekend(new Date(windowStart.getTime() - day * DAY_MS)) === weekend,
  );
  if (sameKind.length >= 2) {
    return sameKind;
  }
  return eligible.length >= 2 ? eligible : [];
}
