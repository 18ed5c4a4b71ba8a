import { Finding } from '../engine/monitors.types';
import { isMuteActive, occurrenceAt, suppressionLookup } from './quiet-schedule';
import { Downtime, Mute } from './quiet.types';

const MINUTE = 60_000;
const start = new Date('2026-03-02T02:00:00.000Z');

function downtime(overrides: Partial<Downtime> = {}): Downtime {
  return {
    id: 'd1',
    scope: 'DETECTOR',
    monitorId: null,
    detector: 'TENANT_ERROR_SPIKE',
    subjectType: null,
    subjectId: null,
    reason: 'deploy',
    startsAt: start,
    durationMinutes: 30,
    recurrence: 'DAILY',
    repeatUntil: null,
    createdByLabel: 'ops',
    cancelledAt: null,
    cancelledByLabel: null,
    createdAt: start,
    updatedAt: start,
    ...overrides,
  };
}

function mute(overrides: Partial<Mute> = {}): Mute {
  return {
    id: 'm1',
    scope: 'SUBJECT',
    monitorId: null,
    detector: null,
    subjectType: 'AGENT',
    subjectId: 'a1',
    reason: 'noisy',
    startsAt: start,
    endsAt: null,
    createdByLabel: 'ops',
    unmutedAt: null,
    unmutedByLabel: null,
    createdAt: start,
    updatedAt: start,
    ...overrides,
  };
}

const finding = {
  detector: 'TENANT_ERROR_SPIKE',
  subject: { type: 'AGENT', id: 'a1' },
} as Finding;

describe('quiet schedule', () => {
  it('should find the window of a daily downtime on a later day and nothing between windows', () => {
    const threeDaysLater = new Date(start.getTime() + 3 * 1_440 * MINUTE + 10 * MINUTE);
    expect(occurrenceAt(downtime(), threeDaysLater)).toEqual({
      start: new Date(start.getTime() + 3 * 1_440 * MINUTE),
      end: new Date(start.getTime() + 3 * 1_440 * MINUTE + 30 * MINUTE),
    });
    expect(
      occurrenceAt(downtime(), new Date(threeDaysLater.getTime() + 30 * MINUTE)),
    ).toBeUndefined();
    expect(occurrenceAt(downtime(), new Date(start.getTime() - MINUTE))).toBeUndefined();
  });

  it('should end a one-off downtime after its window, a recurring one at repeatUntil or when cancelled', () => {
    const nextDay = new Date(start.getTime() + 1_440 * MINUTE + MINUTE);
    expect(occurrenceAt(downtime({ recurrence: 'NONE' }), nextDay)).toBeUndefined();
    expect(
      occurrenceAt(downtime({ repeatUntil: new Date(start.getTime() + 60 * MINUTE) }), nextDay),
    ).toBeUndefined();
    expect(
      occurrenceAt(downtime({ cancelledAt: nextDay }), new Date(nextDay.getTime() + MINUTE)),
    ).toBeUndefined();
    expect(occurrenceAt(downtime({ recurrence: 'WEEKLY' }), nextDay)).toBeUndefined();
  });

  it('should hold a mute until its end or until unmuted', () => {
    const later = new Date(start.getTime() + 60 * MINUTE);
    expect(isMuteActive(mute(), later)).toBe(true);
    expect(isMuteActive(mute({ endsAt: new Date(start.getTime() + MINUTE) }), later)).toBe(false);
    expect(isMuteActive(mute({ unmutedAt: later }), later)).toBe(false);
  });

  it('should name the mute before a downtime, and nothing for a finding neither covers', () => {
    const at = new Date(start.getTime() + 5 * MINUTE);
    const lookup = suppressionLookup([mute()], [downtime()], at, () => undefined);
    expect(lookup(finding)).toEqual({ kind: 'MUTE', id: 'm1', until: null });
    const downOnly = suppressionLookup([], [downtime()], at, () => undefined);
    expect(downOnly(finding)).toEqual({
      kind: 'DOWNTIME',
      id: 'd1',
      until: new Date(start.getTime() + 30 * MINUTE),
    });
    expect(downOnly({ ...finding, detector: 'NOVEL_TOOL_CALL' })).toBeUndefined();
  });

  it('should let a SYSTEM_TEMPLATE monitor id stand for its detector', () => {
    const at = new Date(start.getTime() + 5 * MINUTE);
    const lookup = suppressionLookup(
      [mute({ scope: 'MONITOR', monitorId: 't1', subjectType: null, subjectId: null })],
      [],
      at,
      (id) => (id === 't1' ? 'TENANT_ERROR_SPIKE' : undefined),
    );
    expect(lookup(finding)?.id).toBe('m1');
  });
});
