import { DEFAULT_RISK_TIERS } from './risk-tiers';
import {
  GovernanceRecordRow,
  attestationStaleAt,
  reviewDueAt,
  snapshotOf,
} from './governance-snapshot';

const created = new Date('2026-01-01T00:00:00.000Z');

function record(overrides: Partial<GovernanceRecordRow> = {}): GovernanceRecordRow {
  return {
    id: '8f1c2d3e-0000-4000-8000-000000000001',
    subjectType: 'AGENT',
    subjectId: '8f1c2d3e-0000-4000-8000-000000000002',
    subjectName: 'billing agent',
    ownerStatus: 'NONE',
    revision: 3,
    createdAt: created,
    updatedAt: created,
    ...overrides,
  };
}

describe('governance snapshot', () => {
  it('should put the review due one cadence of the tier after the creation when never reviewed', () => {
    expect(reviewDueAt(DEFAULT_RISK_TIERS, record({ riskTier: 'HIGH' }))).toEqual(
      new Date('2026-04-01T00:00:00.000Z'),
    );
  });

  it('should count the review cadence from the last review when there is one', () => {
    const lastReviewedAt = new Date('2026-03-01T00:00:00.000Z');
    expect(
      reviewDueAt(DEFAULT_RISK_TIERS, record({ riskTier: 'CRITICAL', lastReviewedAt })),
    ).toEqual(new Date('2026-03-31T00:00:00.000Z'));
  });

  it('should give no due dates when the subject has no tier', () => {
    expect(reviewDueAt(DEFAULT_RISK_TIERS, record())).toBeUndefined();
    expect(attestationStaleAt(DEFAULT_RISK_TIERS, record(), undefined)).toBeUndefined();
  });

  it('should carry the tier severity, the staleness and the open incidents when snapshotting', () => {
    const attestedAt = new Date('2026-02-01T00:00:00.000Z');
    const snapshot = snapshotOf(
      DEFAULT_RISK_TIERS,
      record({
        riskTier: 'MEDIUM',
        ownerUserId: '8f1c2d3e-0000-4000-8000-000000000003',
        ownerStatus: 'ACTIVE',
      }),
      attestedAt,
      [{ id: '8f1c2d3e-0000-4000-8000-000000000004', title: 'leak', reportDueAt: created }],
    );
    expect(snapshot).toMatchObject({
      revision: 3,
      riskTier: 'MEDIUM',
      tierSeverity: 'MEDIUM',
      ownerStatus: 'ACTIVE',
      attestedAt: attestedAt.toISOString(),
      attestationStaleAt: '2026-07-31T00:00:00.000Z',
      openIncidents: [{ title: 'leak', reportDueAt: created.toISOString() }],
      isDeleted: false,
    });
  });
});
