import { Severity, SubjectType } from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { DetectorSettings } from '../detector-settings';
import { SightingObservation } from '../rollup-counters';
import { Finding } from '../monitors.types';
import { DAY_MS } from './time-window';

export interface SightingRow {
  observation: SightingObservation;
  subjectType: SubjectType;
  subjectId: string;
  key: string;
  firstSeenAt: Date;
  reappearedAt: Date;
  gapMinutes: number | null;
  countSinceReappeared: number;
}

export const NOVELTY_DETECTORS = [
  'DORMANT_AGENT_REACTIVATION',
  'DORMANT_USER_REACTIVATION',
  'NOVEL_TOOL_CALL',
  'NEW_MCP_SERVER_BINDING',
] as const;
export type NoveltyDetector = (typeof NOVELTY_DETECTORS)[number];

export interface NoveltyInput {
  tenantId: string;
  tick: Date;
  sightings: SightingRow[];
  // When the tenant's own traffic was first seen, if within the longest lookback (undefined: the
  // tenant is older than that): novelty needs a full lookback of history.
  tenantFirstSeen: Date | undefined;
  settings: DetectorSettings;
}

const MINUTES_PER_DAY = 1_440;

/** M5: reactivation after silence, and first sightings in the lookback, from the sightings table. */
export function noveltyFindings(detector: NoveltyDetector, input: NoveltyInput): Finding[] {
  const findings: Finding[] = [];
  for (const row of input.sightings) {
    const finding =
      detector === 'DORMANT_AGENT_REACTIVATION' || detector === 'DORMANT_USER_REACTIVATION'
        ? dormant(detector, row, input)
        : firstSeen(detector, row, input);
    if (finding) {
      findings.push(finding);
    }
  }
  return findings;
}

function dormant(
  detector: NoveltyDetector,
  row: SightingRow,
  input: NoveltyInput,
): Finding | undefined {
  const subjectType = detector === 'DORMANT_AGENT_REACTIVATION' ? 'AGENT' : 'USER';
  const { dormantDays, minVolume } = input.settings;
  if (
    row.observation !== 'ACTIVITY' ||
    row.subjectType !== subjectType ||
    row.gapMinutes === null ||
    row.gapMinutes < dormantDays * MINUTES_PER_DAY ||
    row.countSinceReappeared < minVolume
  ) {
    return undefined;
  }
  const days = Math.floor(row.gapMinutes / MINUTES_PER_DAY);
  const severity: Severity = days >= 90 ? 'HIGH' : 'MEDIUM';
  return {
    findingId: findingIdOf(detector, row, input),
    detector,
    severity,
    direction: 'SPIKE',
    subject: { type: subjectType, id: row.subjectId },
    summary: `${subjectType} ${row.subjectId} active again after ${days} days of silence (${row.countSinceReappeared} events)`,
    evidence: {
      kind: 'DORMANT_REACTIVATION',
      subjectType,
      subjectId: row.subjectId,
      dormantDays: days,
      recentEventCount: row.countSinceReappeared,
    },
    detectedAt: input.tick,
  };
}

function firstSeen(
  detector: NoveltyDetector,
  row: SightingRow,
  input: NoveltyInput,
): Finding | undefined {
  const isTool = detector === 'NOVEL_TOOL_CALL';
  const wanted = isTool ? 'TOOL_CALL' : 'ACTIVITY';
  if (
    row.observation !== wanted ||
    row.subjectType !== 'MCP_SERVER' ||
    row.countSinceReappeared < input.settings.minVolume
  ) {
    return undefined;
  }
  const { lookbackDays } = input.settings;
  const isNew =
    row.gapMinutes === null
      ? input.tenantFirstSeen === undefined ||
        row.reappearedAt.getTime() - input.tenantFirstSeen.getTime() >= lookbackDays * DAY_MS
      : row.gapMinutes >= lookbackDays * MINUTES_PER_DAY;
  if (!isNew) {
    return undefined;
  }
  const key = isTool ? row.key : row.subjectId;
  const what = isTool
    ? `tool ${row.key} of MCP server ${row.subjectId} called`
    : `MCP server ${row.subjectId} bound`;
  return {
    findingId: findingIdOf(detector, row, input),
    detector,
    severity: 'MEDIUM',
    direction: 'SPIKE',
    subject: { type: 'MCP_SERVER', id: row.subjectId },
    summary: `${what} for the first time in ${lookbackDays} days (${row.countSinceReappeared} times since)`,
    evidence: {
      kind: 'FIRST_SEEN',
      subjectType: 'MCP_SERVER',
      subjectId: row.subjectId,
      observation: isTool ? 'TOOL_CALL' : 'MCP_SERVER_BINDING',
      key,
      lookbackDays,
      occurrencesInRecent: row.countSinceReappeared,
    },
    detectedAt: input.tick,
  };
}

function findingIdOf(detector: NoveltyDetector, row: SightingRow, input: NoveltyInput): string {
  return deterministicUuid(
    input.tenantId,
    detector,
    row.subjectType,
    row.subjectId,
    row.key,
    input.tick.toISOString(),
  );
}
