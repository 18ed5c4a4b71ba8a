import { GovernanceGap, GovernedSubjectType, OwnerStatus, Severity } from '@agp/contracts';

import { DetectorSettings, GovernanceDetector } from '../detector-settings';
import { deterministicUuid } from '../deterministic-uuid';
import { Finding } from '../monitors.types';

/** One governed subject as the audit service knows it from the relay's events (D4). */
export interface GovernedSubject {
  recordId: string;
  subjectType: GovernedSubjectType;
  subjectId: string;
  subjectName: string;
  riskTier: string | null;
  tierSeverity: Severity | null;
  ownerUserId: string | null;
  ownerStatus: OwnerStatus;
  reviewDueAt: Date | null;
  attestedAt: Date | null;
  attestationStaleAt: Date | null;
  openIncidents: Array<{ incidentId: string; title: string; reportDueAt: string }>;
}

const DAY_MS = 86_400_000;
/** M20: what `riskTier` says in the evidence of a subject that has none. */
export const UNCLASSIFIED = 'UNCLASSIFIED';

/** A governed subject seen in traffic (a sighting of the rollups, M5). */
export interface ActiveSubject {
  subjectType: GovernedSubjectType;
  subjectId: string;
  lastSeenAt: Date;
}

export interface GovernanceInput {
  tenantId: string;
  now: Date;
  subjects: readonly GovernedSubject[];
  active: readonly ActiveSubject[];
  settings: Readonly<Record<GovernanceDetector, DetectorSettings>>;
}

const GAP_OF: Readonly<Record<GovernanceDetector, GovernanceGap>> = {
  GOVERNANCE_REVIEW_DUE: 'REVIEW_DUE',
  GOVERNANCE_ORPHANED_OWNER: 'ORPHANED_OWNER',
  GOVERNANCE_UNCLASSIFIED_ACTIVE: 'UNCLASSIFIED_ACTIVE',
  GOVERNANCE_STALE_ATTESTATION: 'STALE_ATTESTATION',
  GOVERNANCE_INCIDENT_REPORT_DUE: 'INCIDENT_REPORT_DUE',
};

function daysOverdue(now: Date, due: Date): number {
  return Math.floor((now.getTime() - due.getTime()) / DAY_MS);
}

interface Gap {
  subject: Pick<GovernedSubject, 'subjectType' | 'subjectId' | 'subjectName' | 'riskTier'>;
  severity: Severity;
  /** What makes this gap this gap: a new due date is a new finding (M20). */
  key: string;
  summary: string;
  reviewDueAt?: Date | null;
  attestedAt?: Date | null;
  due?: Date;
}

/** The five governance detectors (issue 17): each subject's open gaps at `now` (M20). */
export function governanceFindings(input: GovernanceInput): Finding[] {
  const { now, settings } = input;
  const gaps = new Map<GovernanceDetector, Gap[]>(
    Object.keys(GAP_OF).map((d) => [d as GovernanceDetector, []]),
  );
  const push = (detector: GovernanceDetector, gap: Gap): void => {
    gaps.get(detector)!.push(gap);
  };
  for (const subject of input.subjects) {
    const severity = subject.tierSeverity ?? 'MEDIUM';
    const label = `${subject.subjectType} ${subject.subjectName}`;
    if (subject.riskTier && subject.reviewDueAt && subject.reviewDueAt <= now) {
      push('GOVERNANCE_REVIEW_DUE', {
        subject,
        severity,
        key: subject.reviewDueAt.toISOString(),
        summary: `${label} (${subject.riskTier}) was due for review on ${subject.reviewDueAt.toISOString().slice(0, 10)}`,
        reviewDueAt: subject.reviewDueAt,
        due: subject.reviewDueAt,
      });
    }
    if (subject.ownerStatus === 'DISABLED' || subject.ownerStatus === 'DELETED') {
      push('GOVERNANCE_ORPHANED_OWNER', {
        subject,
        severity,
        key: `${subject.ownerUserId ?? ''}:${subject.ownerStatus}`,
        summary: `${label} is owned by a ${subject.ownerStatus.toLowerCase()} user`,
      });
    }
    if (subject.riskTier && subject.attestationStaleAt && subject.attestationStaleAt <= now) {
      push('GOVERNANCE_STALE_ATTESTATION', {
        subject,
        severity,
        key: subject.attestationStaleAt.toISOString(),
        summary: subject.attestedAt
          ? `${label}: the attestation of ${subject.attestedAt.toISOString().slice(0, 10)} is stale`
          : `${label} has never been attested`,
        attestedAt: subject.attestedAt,
        due: subject.attestationStaleAt,
      });
    }
    const overdue = subject.openIncidents
      .filter((incident) => new Date(incident.reportDueAt) <= now)
      .sort((a, b) => a.reportDueAt.localeCompare(b.reportDueAt));
    if (overdue.length > 0) {
      push('GOVERNANCE_INCIDENT_REPORT_DUE', {
        subject,
        severity,
        key: overdue.map((incident) => incident.incidentId).join(','),
        summary: `${label}: ${overdue.length} incident report(s) overdue, the oldest "${overdue[0].title}"`,
        due: new Date(overdue[0].reportDueAt),
      });
    }
  }
  const classified = new Map(input.subjects.map((s) => [`${s.subjectType}:${s.subjectId}`, s]));
  const windowMs = settings.GOVERNANCE_UNCLASSIFIED_ACTIVE.windowMinutes * 60_000;
  // M20: a tenant that keeps no governance record has not adopted governance: its traffic is
  // not "unclassified", or every subject of every such tenant would raise an alert.
  const active = input.subjects.length > 0 ? input.active : [];
  for (const seen of active) {
    const subject = classified.get(`${seen.subjectType}:${seen.subjectId}`);
    if (subject?.riskTier || now.getTime() - seen.lastSeenAt.getTime() > windowMs) {
      continue;
    }
    push('GOVERNANCE_UNCLASSIFIED_ACTIVE', {
      subject: subject ?? {
        ...seen,
        // M20: a subject with no record is named by its kind and id.
        subjectName: `${seen.subjectType} ${seen.subjectId}`,
        riskTier: null,
      },
      severity: 'MEDIUM',
      key: subject ? 'unclassified' : 'unrecorded',
      summary: `${seen.subjectType} ${subject?.subjectName ?? seen.subjectId} carries traffic without a risk tier`,
    });
  }
  const findings: Finding[] = [];
  for (const [detector, list] of gaps) {
    if (!settings[detector].enabled) {
      continue;
    }
    for (const gap of list) {
      const { subjectType, subjectId, subjectName } = gap.subject;
      findings.push({
        findingId: deterministicUuid(input.tenantId, detector, subjectType, subjectId, gap.key),
        detector,
        severity: gap.severity,
        direction: 'SPIKE',
        subject: { type: subjectType, id: subjectId },
        summary: gap.summary,
        detectedAt: now,
        evidence: {
          kind: 'GOVERNANCE_GAP',
          subjectType,
          subjectId,
          subjectName,
          gap: GAP_OF[detector],
          riskTier: gap.subject.riskTier ?? UNCLASSIFIED,
          ...(gap.reviewDueAt ? { reviewDueAt: gap.reviewDueAt.toISOString() } : {}),
          ...(gap.attestedAt ? { attestedAt: gap.attestedAt.toISOString() } : {}),
          ...(gap.due ? { daysOverdue: daysOverdue(now, gap.due) } : {}),
        },
      });
    }
  }
  return findings;
}
