import { Detector } from '@agp/contracts';

import { SuppressionLookup } from '../alerts/alert-raiser.service';
import { Finding } from '../engine/monitors.types';
import { Downtime, Mute, QuietTarget } from './quiet.types';

const MINUTE_MS = 60_000;
const PERIOD_MS = { DAILY: 1_440 * MINUTE_MS, WEEKLY: 10_080 * MINUTE_MS } as const;

/** The occurrence of a downtime that covers `at`, if one does (M22). */
export function occurrenceAt(downtime: Downtime, at: Date): { start: Date; end: Date } | undefined {
  if (downtime.cancelledAt && downtime.cancelledAt <= at) {
    return undefined;
  }
  const first = downtime.startsAt.getTime();
  const length = downtime.durationMinutes * MINUTE_MS;
  const t = at.getTime();
  if (t < first) {
    return undefined;
  }
  let start = first;
  if (downtime.recurrence !== 'NONE') {
    const period = PERIOD_MS[downtime.recurrence];
    start = first + Math.floor((t - first) / period) * period;
    if (downtime.repeatUntil && start >= downtime.repeatUntil.getTime()) {
      return undefined;
    }
  }
  return t < start + length ? { start: new Date(start), end: new Date(start + length) } : undefined;
}

export function isMuteActive(mute: Mute, at: Date): boolean {
  return (
    mute.startsAt <= at &&
    (mute.endsAt === null || mute.endsAt > at) &&
    (mute.unmutedAt === null || mute.unmutedAt > at)
  );
}

/** Whether a mute or downtime's target covers a finding; a template's id stands for its detector. */
function covers(
  target: QuietTarget,
  finding: Finding,
  detectorOfTemplate: (id: string) => Detector | undefined,
): boolean {
  switch (target.scope) {
    case 'MONITOR': {
      const detector = target.monitorId ? detectorOfTemplate(target.monitorId) : undefined;
      return detector ? finding.detector === detector : finding.monitorId === target.monitorId;
    }
    case 'DETECTOR':
      return finding.detector === target.detector;
    case 'SUBJECT':
      return finding.subject.type === target.subjectType && finding.subject.id === target.subjectId;
  }
}

/** M22: the lookup the raiser asks for each finding of a tick. */
export function suppressionLookup(
  mutes: readonly Mute[],
  downtimes: readonly Downtime[],
  at: Date,
  detectorOfTemplate: (id: string) => Detector | undefined,
): SuppressionLookup {
  const activeMutes = mutes.filter((mute) => isMuteActive(mute, at));
  const activeDowntimes = downtimes
    .map((downtime) => ({ downtime, occurrence: occurrenceAt(downtime, at) }))
    .filter((entry) => entry.occurrence !== undefined);
  return (finding) => {
    const muting = activeMutes
      .filter((mute) => covers(mute, finding, detectorOfTemplate))
      .sort((a, b) => (b.endsAt?.getTime() ?? Infinity) - (a.endsAt?.getTime() ?? Infinity))[0];
    if (muting) {
      return { kind: 'MUTE', id: muting.id, until: muting.endsAt };
    }
    const down = activeDowntimes
      .filter((entry) => covers(entry.downtime, finding, detectorOfTemplate))
      .sort((a, b) => b.occurrence!.end.getTime() - a.occurrence!.end.getTime())[0];
    return down
      ? { kind: 'DOWNTIME', id: down.downtime.id, until: down.occurrence!.end }
      : undefined;
  };
}
