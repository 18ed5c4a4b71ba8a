import 'reflect-metadata';
import { startMonitorsBench } from '../monitors-bench-app';
import { RollupsRepository } from '../../src/monitors/rollups/rollups.repository';
import { windowSegments } from '../../src/monitors/detectors/time-window';
import { DetectorEvaluatorService } from '../../src/monitors/detectors/detector-evaluator.service';
import { effectiveSettings } from '../../src/monitors/config/detector-settings';

async function main(): Promise<void> {
  const bench = await startMonitorsBench('postgresql://postgres@127.0.0.1:5432/' + process.argv[2]);
  const repo = bench.app.get(RollupsRepository);
  const ev = bench.app.get(DetectorEvaluatorService);
  const tenants: Array<{ tenant_id: string }> = await bench.database.asSystem((tx) => tx.query(`SELECT DISTINCT subject_id AS tenant_id FROM audit.monitor_sightings WHERE subject_type='TENANT'`));
  const tenantId = tenants[0]!.tenant_id;
  const end = new Date('2026-06-01T11:50:00Z');
  for (let i = 0; i < 3; i++) {
    await bench.database.inTenant(tenantId, async (tx) => {
      let t = Date.now();
      await repo.firstSeen(tx, tenantId); const a = Date.now() - t; t = Date.now();
      const rows = await repo.windowCounts(tx, tenantId, windowSegments(end, 15, [0,1,2,3,4,5,6,7], 22), ['REQUESTS','INVOCATIONS','BLOCKS','WARNS','HITL_HOLDS','ERRORS','LLM_FAILOVERS','LLM_CALLS','UNATTRIBUTED_ERRORS','UNATTRIBUTED_WARNS','UNATTRIBUTED_HITL_HOLDS']);
      const b = Date.now() - t; t = Date.now();
      await repo.reappearedBetween(tx, tenantId, new Date(end.getTime() - 900000), end); const c = Date.now() - t; t = Date.now();
      const f = await ev.evaluate(tx, tenantId, new Date(end.getTime() + 60000), effectiveSettings(undefined)); const d = Date.now() - t;
      console.log(`firstSeen ${a} ms, windowCounts ${b} ms (${rows.length} rows), reappeared ${c} ms, evaluate total ${d} ms (${f.length} findings)`);
    });
  }
  await bench.app.close();
}
void main();
