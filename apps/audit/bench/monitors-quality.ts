import { GovernanceDetector, TrafficDetector } from '../src/monitors/engine/detector-settings';
import { Finding } from '../src/monitors/engine/monitors.types';
import { Anomaly } from '../tools/simulator/anomalies';

const MINUTE_MS = 60_000;
/** A finding up to this long after an anomaly ends still belongs to it (window + delay + slack). */
const AFTERMATH_MS = 20 * MINUTE_MS;
/** Findings of one detector and subject closer than this are one episode (one alert to a person). */
const EPISODE_GAP_MS = 30 * MINUTE_MS;

export const FAMILIES: Record<string, Array<TrafficDetector | GovernanceDetector>> = {
  policy: [
    'POLICY_INVOCATION_ANOMALY',
    'POLICY_BLOCK_ANOMALY',
    'POLICY_WARN_ANOMALY',
    'POLICY_HITL_HOLD_ANOMALY',
  ],
  volume: [
    'AGENT_VOLUME_ANOMALY',
    'USER_VOLUME_ANOMALY',
    'MCP_SERVER_VOLUME_ANOMALY',
    'LLM_GATEWAY_VOLUME_ANOMALY',
    'CHANNEL_VOLUME_ANOMALY',
  ],
  tenant: ['TENANT_ERROR_SPIKE', 'TENANT_WARN_SPIKE', 'TENANT_HITL_SPIKE'],
  infrastructure: [
    'LLM_PROVIDER_ERROR_RATE_SPIKE',
    'LLM_GATEWAY_FAILOVER_SPIKE',
    'MCP_SERVER_ERROR_RATE_SPIKE',
  ],
  novelty: [
    'DORMANT_AGENT_REACTIVATION',
    'DORMANT_USER_REACTIVATION',
    'NOVEL_TOOL_CALL',
    'NEW_MCP_SERVER_BINDING',
  ],
  governance: [
    'GOVERNANCE_REVIEW_DUE',
    'GOVERNANCE_ORPHANED_OWNER',
    'GOVERNANCE_UNCLASSIFIED_ACTIVE',
    'GOVERNANCE_STALE_ATTESTATION',
    'GOVERNANCE_INCIDENT_REPORT_DUE',
  ],
};

/** What the scoring needs of an anomaly: a traffic anomaly, or a governance gap (issue 17). */
export interface ScoredAnomaly {
  kind: string;
  detector: TrafficDetector | GovernanceDetector;
  subject: { type: string; id: string };
  start: Date;
  minutes: number;
  affected: string[];
}

export interface QualityReport<A extends ScoredAnomaly = Anomaly> {
  injected: number;
  found: number;
  missed: A[];
  /** Per detector family: anomalies injected and found, and false alarms (issue 38). */
  byFamily: Record<string, { injected: number; found: number; falseAlarms: number }>;
  falseAlarms: Array<{ detector: string; subject: string; at: string; summary: string }>;
  subjectHours: number;
}

export function familyOf(detector: string): string {
  return Object.keys(FAMILIES).find((f) => (FAMILIES[f] as string[]).includes(detector)) ?? 'other';
}

function emptyFamily(): { injected: number; found: number; falseAlarms: number } {
  return { injected: 0, found: 0, falseAlarms: 0 };
}

/**
 * Issue 38: several methods' reports on one trace as one table, a row per detector family (found /
 * injected, false alarms), then the totals and false alarms per 10,000 subject-hours.
 */
export function sideBySide(reports: Record<string, QualityReport<ScoredAnomaly>>): string {
  const methods = Object.keys(reports);
  const families = [
    ...new Set(Object.values(reports).flatMap((r) => Object.keys(r.byFamily))),
  ].sort();
  const cell = (text: string): string => text.padEnd(24);
  const lines = [`${'family'.padEnd(16)}${methods.map((m) => cell(m)).join('')}`];
  for (const family of families) {
    const cells = methods.map((m) => {
      const entry = reports[m]?.byFamily[family] ?? emptyFamily();
      return cell(`${entry.found}/${entry.injected} found, ${entry.falseAlarms} false`);
    });
    lines.push(`${family.padEnd(16)}${cells.join('')}`);
  }
  const total = methods.map((m) => {
    const r = reports[m];
    return cell(
      r
        ? `${r.found}/${r.injected} (${((100 * r.found) / Math.max(1, r.injected)).toFixed(1)} %), ${r.falseAlarms.length} false`
        : '',
    );
  });
  lines.push(`${'all'.padEnd(16)}${total.join('')}`);
  const rate = methods.map((m) => {
    const r = reports[m];
    return cell(r ? ((r.falseAlarms.length * 10_000) / r.subjectHours).toFixed(2) : '');
  });
  lines.push(`${'per 10k s-h'.padEnd(16)}${rate.join('')}`);
  return lines.join('\n');
}

function during(anomaly: ScoredAnomaly, at: Date): boolean {
  const t = at.getTime();
  return (
    t >= anomaly.start.getTime() &&
    t <= anomaly.start.getTime() + anomaly.minutes * MINUTE_MS + AFTERMATH_MS
  );
}

/**
 * Found: an anomaly with a finding of its detector on its subject while it lasts (or just after).
 * False alarm: an episode of findings on a subject that no anomaly touched at the time.
 */
export function scoreQuality<A extends ScoredAnomaly>(
  anomalies: A[],
  findings: Finding[],
  subjects: number,
  hours: number,
): QualityReport<A> {
  const byFamily: QualityReport['byFamily'] = {};
  const missed: A[] = [];
  for (const anomaly of anomalies) {
    const entry = (byFamily[familyOf(anomaly.detector)] ??= emptyFamily());
    entry.injected += 1;
    const isFound = findings.some(
      (f) =>
        f.detector === anomaly.detector &&
        f.subject.id === anomaly.subject.id &&
        during(anomaly, f.detectedAt),
    );
    if (isFound) {
      entry.found += 1;
    } else {
      missed.push(anomaly);
    }
  }
  const lastSeen = new Map<string, number>();
  const falseAlarms: QualityReport['falseAlarms'] = [];
  for (const finding of [...findings].sort(
    (a, b) => a.detectedAt.getTime() - b.detectedAt.getTime(),
  )) {
    const explained = anomalies.some(
      (a) => a.affected.includes(finding.subject.id) && during(a, finding.detectedAt),
    );
    if (explained) {
      continue;
    }
    const key = `${finding.detector}:${finding.subject.id}`;
    const previous = lastSeen.get(key);
    lastSeen.set(key, finding.detectedAt.getTime());
    if (previous === undefined || finding.detectedAt.getTime() - previous > EPISODE_GAP_MS) {
      (byFamily[familyOf(finding.detector)] ??= emptyFamily()).falseAlarms += 1;
      falseAlarms.push({
        detector: finding.detector,
        subject: `${finding.subject.type}:${finding.subject.id}`,
        at: finding.detectedAt.toISOString(),
        summary: finding.summary,
      });
    }
  }
  return {
    injected: anomalies.length,
    found: anomalies.length - missed.length,
    missed,
    byFamily,
    falseAlarms,
    subjectHours: subjects * hours,
  };
}
