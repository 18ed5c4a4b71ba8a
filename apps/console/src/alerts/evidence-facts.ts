import type { MonitorEvidence } from '@agp/contracts';

export interface Fact {
  label: string;
  value: string;
}

const number = (value: number | undefined): string =>
  value === undefined ? '—' : Number.isInteger(value) ? String(value) : value.toFixed(2);

function volumeFacts(e: {
  direction: string;
  observedTotal: number;
  observedPerMinute: number;
  baselinePerMinute: number;
  ratio: number;
  sampleMinutes: number;
}): Fact[] {
  return [
    { label: 'Direction', value: e.direction },
    { label: 'Observed', value: `${number(e.observedTotal)} in ${e.sampleMinutes} min` },
    { label: 'Observed per minute', value: number(e.observedPerMinute) },
    { label: 'Baseline per minute', value: number(e.baselinePerMinute) },
    { label: 'Ratio to baseline', value: `×${number(e.ratio)}` },
  ];
}

const subject = (e: { subjectType: string; subjectId: string }): Fact => ({
  label: 'Subject',
  value: `${e.subjectType} ${e.subjectId}`,
});

/**
 * The specification's eight evidence kinds, D51's and G14's as a person reads them: one labelled fact per field.
 * The switch is exhaustive, so a kind added to the contracts and not here fails the build.
 */
export function evidenceFacts(evidence: MonitorEvidence): Fact[] {
  switch (evidence.kind) {
    case 'CUSTOM_QUERY':
      return [
        { label: 'Monitor type', value: evidence.monitorType },
        { label: 'Metric', value: `${evidence.aggregation} of ${evidence.metric}` },
        { label: 'Window', value: evidence.window },
        { label: 'Grouped by', value: evidence.groupBy },
        { label: 'Observed', value: number(evidence.observedValue) },
        { label: 'Compared with', value: number(evidence.comparisonValue) },
        { label: 'Threshold', value: number(evidence.threshold) },
        ...(evidence.subjectLabel ? [{ label: 'For', value: evidence.subjectLabel }] : []),
      ];
    case 'DORMANT_REACTIVATION':
      return [
        subject(evidence),
        { label: 'Dormant for', value: `${evidence.dormantDays} days` },
        { label: 'Recent events', value: String(evidence.recentEventCount) },
      ];
    case 'ENTITY_VOLUME':
      return [subject(evidence), ...volumeFacts(evidence)];
    case 'INFRASTRUCTURE_INCIDENT':
      return [
        subject(evidence),
        { label: 'Incident', value: evidence.incidentType },
        ...volumeFacts(evidence),
      ];
    case 'FIRST_SEEN':
      return [
        subject(evidence),
        { label: 'First seen', value: `${evidence.observation} ${evidence.key}` },
        { label: 'Looked back', value: `${evidence.lookbackDays} days` },
        { label: 'Occurrences lately', value: String(evidence.occurrencesInRecent) },
      ];
    case 'GOVERNANCE_GAP':
      return [
        { label: 'Subject', value: `${evidence.subjectType} ${evidence.subjectName}` },
        { label: 'Gap', value: evidence.gap },
        { label: 'Risk tier', value: evidence.riskTier },
        { label: 'Review due', value: evidence.reviewDueAt ?? '—' },
        { label: 'Attested', value: evidence.attestedAt ?? '—' },
        { label: 'Days overdue', value: number(evidence.daysOverdue) },
      ];
    case 'POLICY_METRIC':
      return [
        { label: 'Policy', value: evidence.policyId },
        { label: 'Metric', value: evidence.metric },
        ...volumeFacts(evidence),
      ];
    case 'TENANT_ACTION_SPIKE':
      return [
        { label: 'Action', value: evidence.action },
        ...volumeFacts(evidence),
        { label: 'Not attributed to a policy', value: String(evidence.unattributedCount) },
      ];
    case 'TOOL_DEFINITION':
      // D51, beyond the specification: a pinned tool that changed, or a name two servers offer.
      return [
        subject(evidence),
        { label: 'Tool', value: evidence.tool },
        { label: 'Change', value: evidence.change },
        ...(evidence.changedFields
          ? [{ label: 'Changed fields', value: evidence.changedFields.join(', ') }]
          : []),
        ...(evidence.otherMcpServerId
          ? [{ label: 'Also offered by', value: `MCP_SERVER ${evidence.otherMcpServerId}` }]
          : []),
        ...(evidence.subscriberId ? [{ label: 'Subscriber', value: evidence.subscriberId }] : []),
      ];
    case 'EVALUATION_RUN':
      // governance.md G14, beyond the specification: a pack run that failed.
      return [
        { label: 'Evaluation pack', value: `${evidence.packName} (${evidence.packId})` },
        { label: 'Run', value: evidence.runId },
        { label: 'Run status', value: evidence.status },
        { label: 'Failed evaluations', value: `${evidence.failed} of ${evidence.evaluationCount}` },
        ...(evidence.errorMessage ? [{ label: 'Error', value: evidence.errorMessage }] : []),
      ];
    case 'BUDGET':
      // D60, beyond the specification (spend.md SP11): a budget's soft limit reached.
      return [
        subject(evidence),
        { label: 'Budget', value: evidence.budgetId },
        {
          label: 'Counts',
          value: `${evidence.scope}${evidence.targetId ? ` ${evidence.targetId}` : ''}, ${evidence.unit} per ${evidence.period}`,
        },
        { label: 'Used', value: `${evidence.used} of the soft limit ${evidence.softLimit}` },
      ];
    default:
      return assertNever(evidence);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unknown evidence kind: ${JSON.stringify(value)}`);
}
