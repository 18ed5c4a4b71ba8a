import { CheckResult, keyOf } from './conformance-run';

export interface KnownException {
  scenario: string;
  /** The check ids, or every check of the scenario when absent. */
  checks?: string[];
  reason: string;
}

export interface Comparison {
  rows: { key: string; direct: string; relayed: string }[];
  /** Passed directly, not through the relay, and not a known exception: these fail the test. */
  lost: string[];
  /** Passed directly, not through the relay, listed as a known exception. */
  excused: string[];
  /** Listed as an exception but passing through the relay now: the list must shrink. */
  stale: string[];
}

export function isPassed(status: string | undefined): boolean {
  return status === 'SUCCESS';
}

export function compare(
  direct: CheckResult[],
  relayed: CheckResult[],
  exceptions: readonly KnownException[],
): Comparison {
  const through = new Map(relayed.map((c) => [keyOf(c), c.status]));
  const keys = [...new Set([...direct.map(keyOf), ...relayed.map(keyOf)])].sort();
  const byKey = new Map(direct.map((c) => [keyOf(c), c.status]));
  const excuse = (key: string): KnownException | undefined =>
    exceptions.find(
      (e) =>
        key.startsWith(`${e.scenario} / `) &&
        (e.checks === undefined || e.checks.some((id) => key === `${e.scenario} / ${id}`)),
    );
  const rows = keys.map((key) => ({
    key,
    direct: byKey.get(key) ?? '—',
    relayed: through.get(key) ?? '—',
  }));
  const dropped = rows.filter((r) => isPassed(r.direct) && !isPassed(r.relayed));
  return {
    rows,
    lost: dropped.filter((r) => !excuse(r.key)).map((r) => r.key),
    excused: dropped.filter((r) => excuse(r.key)).map((r) => r.key),
    stale: rows.filter((r) => excuse(r.key) && isPassed(r.relayed)).map((r) => r.key),
  };
}

/** docs/mcp-conformance.md as the run found it. */
export function markdownOf(
  comparison: Comparison,
  exceptions: readonly KnownException[],
  facts: { suiteVersion: string; command: string },
): string {
  const count = (column: 'direct' | 'relayed'): number =>
    comparison.rows.filter((r) => isPassed(r[column])).length;
  const lines = [
    '# MCP conformance: directly and through the relay',
    '',
    `Written by \`apps/runner/test/mcp-conformance.e2e-spec.ts\` (\`npm test\`); do not edit by hand.`,
    `The official suite \`@modelcontextprotocol/conformance\` ${facts.suiteVersion}, \`${facts.command}\`,`,
    'against its own reference server (its `everything-server.ts`), once directly and once through',
    '`/relay/mcp/{serverId}` with a LOG policy bound to the calling agent.',
    '',
    `**${count('direct')}** checks pass directly, **${count('relayed')}** through the relay, of ` +
      `${comparison.rows.length}. A check that passes directly and fails through the relay fails the ` +
      'test unless it is listed below as a known exception, with its reason.',
    '',
    '## Known exceptions',
    '',
    ...(exceptions.length === 0
      ? ['None.']
      : exceptions.map(
          (e) => `- \`${e.scenario}\`${e.checks ? ` (${e.checks.join(', ')})` : ''}: ${e.reason}`,
        )),
    '',
    '## Every check',
    '',
    '| Scenario / check | Direct | Through the relay |',
    '| --- | --- | --- |',
    ...comparison.rows.map((r) => `| ${r.key} | ${r.direct} | ${r.relayed} |`),
    '',
  ];
  return lines.join('\n');
}
