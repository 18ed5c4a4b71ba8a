import { Tx } from '@agp/database';
import { PageQueryDto, pageOf, pageOffset } from '@agp/http';

import { DecisionDiff } from './decision-diffs';
import { DecisionDiffsRepository, DiffSource } from './decision-diffs.repository';

export async function readDecisionDiff(
  diffs: DecisionDiffsRepository,
  tx: Tx,
  tenantId: string,
  source: DiffSource,
  window: { from: Date; to: Date },
  page: PageQueryDto,
): Promise<DecisionDiff> {
  const counts = await diffs.counts(tx, tenantId, source, window.from, window.to);
  const changed = counts
    .filter((c) => c.enforcedAction !== c.shadowAction)
    .reduce((sum, c) => sum + c.count, 0);
  const samples = await diffs.changed(
    tx,
    tenantId,
    source,
    window,
    page.pageSize,
    pageOffset(page),
  );
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    compared: counts.reduce((sum, c) => sum + c.count, 0),
    changed,
    counts,
    samples: pageOf(samples, changed, page),
  };
}
