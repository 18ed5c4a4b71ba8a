import { Inject, Injectable } from '@nestjs/common';
import { GOVERNED_SUBJECT_TYPES, GovernedSubjectType } from '@agp/contracts';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';
import { GOVERNANCE_DETECTORS, MonitorSettings } from '../engine/detector-settings';
import { Finding } from '../engine/monitors.types';
import { RollupsRepository } from '../rollups/rollups.repository';
import { GovernanceProjectionRepository } from './governance-projection.repository';
import { governanceFindings } from '../engine/detectors/governance-detectors';

/** Runs the five governance detectors of one tenant at one tick (issue 17). */
@Injectable()
export class GovernanceEvaluatorService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    private readonly projection: GovernanceProjectionRepository,
    private readonly rollups: RollupsRepository,
  ) {}

  async evaluate(tenantId: string, tick: Date, settings: MonitorSettings): Promise<Finding[]> {
    if (!GOVERNANCE_DETECTORS.some((d) => settings.detectors[d].enabled)) {
      return [];
    }
    const window = settings.detectors.GOVERNANCE_UNCLASSIFIED_ACTIVE.windowMinutes;
    const [subjects, active] = await this.database.inTenant(tenantId, async (tx) => [
      await this.projection.subjectsOf(tx, tenantId),
      await this.rollups.activeSince(
        tx,
        tenantId,
        GOVERNED_SUBJECT_TYPES,
        new Date(tick.getTime() - window * 60_000),
      ),
    ]);
    return governanceFindings({
      tenantId,
      now: tick,
      subjects,
      active: active.map((row) => ({
        ...row,
        subjectType: row.subjectType as GovernedSubjectType,
      })),
      settings: settings.detectors,
    });
  }
}
