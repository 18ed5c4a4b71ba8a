import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { MonitorAlertTriggeredData } from './monitor-alert-triggered.event';
import { InfrastructureIncidentEvidence, TenantActionSpikeEvidence } from './monitor-evidence';

const ID = '0b6f1f5e-3b7a-4c1e-9d2a-5f6e7d8c9b0a';

function triggered(evidence: Record<string, unknown>): MonitorAlertTriggeredData {
  return plainToInstance(MonitorAlertTriggeredData, {
    alertId: ID,
    findingId: ID,
    detector: 'AGENT_VOLUME_ANOMALY',
    severity: 'HIGH',
    direction: 'SPIKE',
    subject: { type: 'AGENT', id: ID },
    detectedAt: '2026-11-22T03:00:00.000Z',
    summary: 'agent volume 4x baseline',
    evidence,
  });
}

const volume = {
  kind: 'ENTITY_VOLUME',
  subjectType: 'AGENT',
  subjectId: ID,
  direction: 'SPIKE',
  observedTotal: 400,
  observedPerMinute: 26.7,
  baselinePerMinute: 6.6,
  ratio: 4.04,
  sampleMinutes: 15,
};

describe(MonitorAlertTriggeredData.name, () => {
  it('should accept a payload when its evidence matches its kind', () => {
    expect(validateSync(triggered(volume))).toEqual([]);
  });

  it('should pick the evidence class by kind when transforming', () => {
    const data = triggered({
      ...volume,
      kind: 'INFRASTRUCTURE_INCIDENT',
      incidentType: 'FAILOVER',
    });
    expect(data.evidence).toBeInstanceOf(InfrastructureIncidentEvidence);
    expect(validateSync(data)).toEqual([]);
  });

  it('should reject evidence when a required field of its kind is missing', () => {
    const data = triggered({ ...volume, kind: 'INFRASTRUCTURE_INCIDENT' });
    expect(validateSync(data).map((e) => e.property)).toEqual(['evidence']);
  });

  it('should reject evidence when an enumeration is broken', () => {
    const data = triggered({ ...volume, direction: 'SIDEWAYS', subjectType: 'ROBOT' });
    const children = validateSync(data)[0]?.children?.map((e) => e.property);
    expect(children).toEqual(expect.arrayContaining(['direction', 'subjectType']));
  });

  it('should reject evidence when the kind is unknown', () => {
    expect(validateSync(triggered({ ...volume, kind: 'HUNCH' }))).not.toEqual([]);
  });
});

describe(TenantActionSpikeEvidence.name, () => {
  it('should reject a contribution when its percentage is out of range', () => {
    const evidence = plainToInstance(TenantActionSpikeEvidence, {
      kind: 'TENANT_ACTION_SPIKE',
      action: 'ERROR',
      direction: 'SPIKE',
      observedTotal: 10,
      observedPerMinute: 1,
      baselinePerMinute: 0.1,
      ratio: 10,
      sampleMinutes: 10,
      topContributors: [{ policyId: ID, count: 3, percentage: 130 }],
      unattributedCount: 7,
    });
    expect(validateSync(evidence).map((e) => e.property)).toEqual(['topContributors']);
  });
});
