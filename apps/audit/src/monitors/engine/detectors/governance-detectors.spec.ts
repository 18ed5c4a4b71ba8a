import { DEFAULT_DETECTOR_SETTINGS } from '../detector-settings';
import { GovernedSubject } from '../../governance/governance-projection.repository';
import { governanceFindings } from './governance-detectors';

const DAY = 86_400_000;
const now = new Date('2026-06-01T12:00:00.000Z');

function subject(overrides: Partial<GovernedSubject> = {}): GovernedSubject {
  return {
    recordId: 'r1',
    subjectType: 'AGENT',
    subjectId: '8f1c2d3e-0000-4000-8000-000000000001',
    subjectName: 'billing agent',
    riskTier: 'HIGH',
    tierSeverity: 'HIGH',
    ownerUserId: null,
    ownerStatus: 'ACTIVE',
    reviewDueAt: new Date(now.getTime() + DAY),
    attestedAt: null,
    attestationStaleAt: new Date(now.getTime() + DAY),
    openIncidents: [],
    ...overrides,
  };
}

function run(
  subjects: GovernedSubject[],
  active: Parameters<typeof governanceFindings>[0]['active'] = [],
) {
  return governanceFindings({
    tenantId: 't',
    now,
    subjects,
    active,
    settings: DEFAULT_DETECTOR_SETTINGS,
  });
}

describe('governance detectors', () => {
  it('should find nothing for a subject whose governance is in order', () => {
    expect(run([subject()])).toEqual([]);
  });

  it('should find each gap with its evidence and the tier’s severity', () => {
    const findings = run([
      subject({
        reviewDueAt: new Date(now.getTime() - 2.5 * DAY),
        ownerStatus: 'DELETED',
        attestationStaleAt: new Date(now.getTime() - DAY),
        openIncidents: [
          {
            incidentId: 'i1',
            title: 'leak',
            reportDueAt: new Date(now.getTime() - 4 * DAY).toISOString(),
          },
        ],
      }),
    ]);
    expect(findings.map((f) => [f.detector, f.severity, f.evidence])).toEqual([
      [
        'GOVERNANCE_REVIEW_DUE',
        'HIGH',
        expect.objectContaining({ gap: 'REVIEW_DUE', daysOverdue: 2 }),
      ],
      ['GOVERNANCE_ORPHANED_OWNER', 'HIGH', expect.objectContaining({ gap: 'ORPHANED_OWNER' })],
      [
        'GOVERNANCE_STALE_ATTESTATION',
        'HIGH',
        expect.objectContaining({ gap: 'STALE_ATTESTATION', daysOverdue: 1 }),
      ],
      [
        'GOVERNANCE_INCIDENT_REPORT_DUE',
        'HIGH',
        expect.objectContaining({ gap: 'INCIDENT_REPORT_DUE', daysOverdue: 4 }),
      ],
    ]);
  });

  it('should keep the same finding id while the gap is the same, and a new one for a new due date', () => {
    const late = subject({ reviewDueAt: new Date(now.getTime() - DAY) });
    const [first] = run([late]);
    const [again] = run([late]);
    const [moved] = run([{ ...late, reviewDueAt: new Date(now.getTime() - 2 * DAY) }]);
    expect(again.findingId).toBe(first.findingId);
    expect(moved.findingId).not.toBe(first.findingId);
  });

  it('should find unclassified traffic only in a tenant that keeps records, and only within the window', () => {
    const seen = {
      subjectType: 'MCP_SERVER' as const,
      subjectId: 's1',
      lastSeenAt: new Date(now.getTime() - 10 * 60_000),
    };
    const stale = {
      ...seen,
      subjectId: 's2',
      lastSeenAt: new Date(now.getTime() - 2 * 60 * 60_000),
    };
    expect(run([], [seen])).toEqual([]);
    const findings = run([subject()], [seen, stale]);
    expect(findings.map((f) => [f.detector, f.subject.id, f.evidence])).toEqual([
      [
        'GOVERNANCE_UNCLASSIFIED_ACTIVE',
        's1',
        expect.objectContaining({ riskTier: 'UNCLASSIFIED', subjectName: 'MCP_SERVER s1' }),
      ],
    ]);
  });

  it('should leave a disabled detector silent', () => {
    const settings = {
      ...DEFAULT_DETECTOR_SETTINGS,
      GOVERNANCE_ORPHANED_OWNER: {
        ...DEFAULT_DETECTOR_SETTINGS.GOVERNANCE_ORPHANED_OWNER,
        enabled: false,
      },
    };
    expect(
      governanceFindings({
        tenantId: 't',
        now,
        subjects: [subject({ ownerStatus: 'DISABLED' })],
        active: [],
        settings,
      }),
    ).toEqual([]);
  });
});
