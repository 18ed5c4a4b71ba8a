import {
  GOVERNED_SUBJECT_TYPES,
  GovernanceRecordSnapshot,
  GovernedSubjectType,
} from '@agp/contracts';

import { GovernanceDetector } from '../../src/monitors/engine/detector-settings';
import { Random } from './random';
import { TenantModel, rhythmOf, trendOf } from './traffic-model';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const FAR = '2099-01-01T00:00:00.000Z';

/** The governance gaps the quality bench opens and closes again, each for one detector (issue 17). */
export const GOVERNANCE_GAP_KINDS = {
  REVIEW_OVERDUE: 'GOVERNANCE_REVIEW_DUE',
  OWNER_DISABLED: 'GOVERNANCE_ORPHANED_OWNER',
  TIER_REMOVED: 'GOVERNANCE_UNCLASSIFIED_ACTIVE',
  ATTESTATION_STALE: 'GOVERNANCE_STALE_ATTESTATION',
  INCIDENT_REPORT_OVERDUE: 'GOVERNANCE_INCIDENT_REPORT_DUE',
} as const satisfies Record<string, GovernanceDetector>;
export type GovernanceGapKind = keyof typeof GOVERNANCE_GAP_KINDS;

/** A gap in a subject's governance record from `start` for `minutes`, then closed again. */
export interface GovernanceGap {
  kind: GovernanceGapKind;
  detector: GovernanceDetector;
  subject: { type: GovernedSubjectType; id: string };
  start: Date;
  minutes: number;
  affected: string[];
}

/**
 * `perKind` gaps of each kind in [from, to), on governed subjects of the model, drawn from a
 * generator of their own (the traffic's draws, and so the earlier traces, stay as they were). A
 * tier removed is placed only where the subject carries traffic in the hour (the detector needs
 * it active): at least 20 requests expected, so that an hour without any is beyond chance.
 */
export function planGovernanceGaps(
  model: TenantModel,
  traceStart: Date,
  from: Date,
  to: Date,
  seed: number,
  perKind = 2,
): GovernanceGap[] {
  const random = new Random(seed ^ 0x9e3779b9);
  const governed = model.streams.filter(
    (s) =>
      s.metric === 'REQUESTS' &&
      s.peak > 0 &&
      (GOVERNED_SUBJECT_TYPES as readonly string[]).includes(s.subjectType),
  );
  const gaps: GovernanceGap[] = [];
  const used = new Set<string>();
  for (const kind of Object.keys(GOVERNANCE_GAP_KINDS) as GovernanceGapKind[]) {
    for (let n = 0; n < perKind; n += 1) {
      for (let attempt = 0; attempt < 500; attempt += 1) {
        const stream = governed[random.int(0, governed.length)];
        const start = new Date(
          Math.floor(
            random.between(from.getTime(), to.getTime() - 2 * 60 * MINUTE_MS) / MINUTE_MS,
          ) * MINUTE_MS,
        );
        const busy =
          stream &&
          stream.peak *
            60 *
            rhythmOf(stream, start, model.holidays) *
            trendOf(stream, start, traceStart) >=
            20;
        if (!stream || used.has(stream.subjectId) || (kind === 'TIER_REMOVED' && !busy)) {
          continue;
        }
        used.add(stream.subjectId);
        gaps.push({
          kind,
          detector: GOVERNANCE_GAP_KINDS[kind],
          subject: { type: stream.subjectType as GovernedSubjectType, id: stream.subjectId },
          start,
          minutes: random.int(30, 61),
          affected: [stream.subjectId],
        });
        break;
      }
    }
  }
  return gaps.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** Whether a gap is open at `at`. */
export function isGapOpen(gap: GovernanceGap, at: Date): boolean {
  const t = at.getTime();
  return t >= gap.start.getTime() && t < gap.start.getTime() + gap.minutes * MINUTE_MS;
}

/**
 * The governance record of each governed subject as it stands at `at` (revision `revision`): a
 * tier, an active owner, a review and an attestation due far ahead and no open incident, except
 * where a gap is open. A subject added by an anomaly (a new MCP server) has its record too.
 */
export function governanceSnapshots(
  model: TenantModel,
  gaps: readonly GovernanceGap[],
  at: Date,
  revision: number,
  subjectIds?: ReadonlySet<string>,
): GovernanceRecordSnapshot[] {
  const open = new Map(gaps.filter((g) => isGapOpen(g, at)).map((g) => [g.subject.id, g]));
  return model.subjects
    .filter(
      (s) =>
        (GOVERNED_SUBJECT_TYPES as readonly string[]).includes(s.type) &&
        (!subjectIds || subjectIds.has(s.id)),
    )
    .map((s) => {
      const gap = open.get(s.id)?.kind;
      const since = gap ? (open.get(s.id)?.start.toISOString() ?? FAR) : FAR;
      return {
        recordId: s.id,
        revision,
        subjectType: s.type as GovernedSubjectType,
        subjectId: s.id,
        subjectName: `${s.type.toLowerCase()} ${s.id.slice(0, 8)}`,
        ...(gap === 'TIER_REMOVED' ? {} : { riskTier: 'LOW', tierSeverity: 'LOW' as const }),
        ownerUserId: s.id,
        ownerStatus: gap === 'OWNER_DISABLED' ? 'DISABLED' : 'ACTIVE',
        reviewDueAt: gap === 'REVIEW_OVERDUE' ? since : FAR,
        attestedAt: new Date(at.getTime() - DAY_MS).toISOString(),
        attestationStaleAt: gap === 'ATTESTATION_STALE' ? since : FAR,
        openIncidents:
          gap === 'INCIDENT_REPORT_OVERDUE'
            ? [{ incidentId: s.id, title: 'simulated incident', reportDueAt: since }]
            : [],
        isDeleted: false,
      };
    });
}
