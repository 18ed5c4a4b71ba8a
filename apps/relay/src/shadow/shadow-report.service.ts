import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { PoliciesErrorCode, PoliciesException } from '../policies/policies.exception';
import { PolicyBindingsRepository } from '../policies/policy-bindings.repository';
import { BindingMode } from '../policies/policy.types';
import { DecisionDiff } from './decision-diffs';
import { DecisionDiffsRepository } from './decision-diffs.repository';
import { DecisionDiffQueryDto } from './dto/decision-diff-query.dto';
import { readDecisionDiff } from './read-decision-diff';

/** D55: what a SHADOW binding would have changed, over a window. */
export interface ShadowReportResponse extends DecisionDiff {
  bindingId: string;
  mode: BindingMode;
}

/** `GET /relay/v1/policy-bindings/{bindingId}/shadow-report` (D49, D55, governance.md G8). */
@Injectable()
export class ShadowReportService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly bindings: PolicyBindingsRepository,
    private readonly diffs: DecisionDiffsRepository,
  ) {}

  report(
    ctx: RequestContext,
    bindingId: string,
    query: DecisionDiffQueryDto,
  ): Promise<ShadowReportResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const binding = await this.bindings.find(tx, ctx.tenantId, bindingId);
      if (!binding) {
        throw new PoliciesException(
          PoliciesErrorCode.BindingNotFound,
          `policy binding ${bindingId} not found`,
        );
      }
      // D55: by default since the binding began, until now.
      const from = new Date(query.from ?? binding.createdAt);
      const to = query.to ? new Date(query.to) : new Date();
      if (from >= to) {
        throw new PoliciesException(
          PoliciesErrorCode.InvalidRequest,
          'invalid window: from must be before to',
          [{ field: 'to', message: 'to must be after from' }],
        );
      }
      const source = { kind: 'SHADOW', bindingId } as const;
      const diff = await readDecisionDiff(
        this.diffs,
        tx,
        ctx.tenantId,
        source,
        { from, to },
        query,
      );
      return { bindingId, mode: binding.mode, ...diff };
    });
  }
}
