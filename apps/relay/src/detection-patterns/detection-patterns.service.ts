import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { Database, Tx, isUniqueViolation } from '@agp/database';
import { compileLinear } from '@agp/guardrails';
import { HttpProblem, Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CreateDetectionPatternDto } from './dto/create-detection-pattern.dto';
import { ListDetectionPatternsQueryDto } from './dto/list-detection-patterns-query.dto';
import { UpdateDetectionPatternDto } from './dto/update-detection-pattern.dto';
import {
  DETECTION_PATTERN_KIND,
  DetectionPatternResponse,
  StoredDetectionPattern,
} from './detection-pattern.types';
import {
  DetectionPatternsErrorCode,
  DetectionPatternsException,
} from './detection-patterns.exception';
import {
  DetectionPatternChange,
  DetectionPatternsRepository,
} from './detection-patterns.repository';

/**
 * D53, D42: every change is an ADMIN_CHANGE of kind DETECTION_PATTERN in its transaction, and
 * that event's broadcast is what drops the tenant's decision cache on every replica (GR17).
 */
@Injectable()
export class DetectionPatternsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly patterns: DetectionPatternsRepository,
  ) {}

  async list(
    ctx: RequestContext,
    query: ListDetectionPatternsQueryDto,
  ): Promise<Page<DetectionPatternResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.patterns.list(tx, ctx.tenantId, query.set, query.pageSize, pageOffset(query)),
    );
    return pageOf(items.map(toResponse), total, query);
  }

  get(ctx: RequestContext, id: string): Promise<DetectionPatternResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      toResponse(await this.mustFind(tx, ctx.tenantId, id)),
    );
  }

  async create(
    ctx: RequestContext,
    dto: CreateDetectionPatternDto,
  ): Promise<DetectionPatternResponse> {
    const value: DetectionPatternChange = {
      set: dto.set,
      label: dto.label,
      pattern: dto.pattern,
      flags: dto.flags ?? '',
      mode: dto.mode ?? 'DETECT',
      scope: dto.scope ?? 'ALL',
    };
    mustRunLinear(value);
    const created = await this.writing(value, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const stored = await this.patterns.insert(tx, {
          id: randomUUID(),
          tenantId: ctx.tenantId,
          ...value,
        });
        await recordAdminChange(this.outbox, tx, ctx, 'CREATED', {
          target: targetOf(stored),
          after: toResponse(stored),
        });
        return stored;
      }),
    );
    return toResponse(created);
  }

  async update(
    ctx: RequestContext,
    id: string,
    dto: UpdateDetectionPatternDto,
  ): Promise<DetectionPatternResponse> {
    let next: DetectionPatternChange | undefined;
    const updated = await this.writing(dto, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const current = await this.mustFind(tx, ctx.tenantId, id, true);
        next = {
          set: dto.set ?? current.set,
          label: dto.label ?? current.label,
          pattern: dto.pattern ?? current.pattern,
          flags: dto.flags ?? current.flags,
          mode: dto.mode ?? current.mode,
          scope: dto.scope ?? current.scope,
        };
        mustRunLinear(next);
        const stored = await this.patterns.update(tx, ctx.tenantId, id, next);
        await recordAdminChange(this.outbox, tx, ctx, 'UPDATED', {
          target: targetOf(stored),
          before: toResponse(current),
          after: toResponse(stored),
        });
        return stored;
      }),
    );
    return toResponse(updated);
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx.tenantId, id, true);
      await this.patterns.delete(tx, ctx.tenantId, id);
      await recordAdminChange(this.outbox, tx, ctx, 'DELETED', {
        target: targetOf(current),
        before: toResponse(current),
      });
    });
  }

  /** A label is unique within its set (it is the findings' type): a second one is a 409. */
  private async writing<T>(
    value: { set?: string; label?: string },
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new DetectionPatternsException(
          DetectionPatternsErrorCode.LabelTaken,
          `the set already has a pattern labelled ${JSON.stringify(value.label)}`,
        );
      }
      throw error;
    }
  }

  private async mustFind(
    tx: Tx,
    tenantId: string,
    id: string,
    lock = false,
  ): Promise<StoredDetectionPattern> {
    const found = await this.patterns.find(tx, tenantId, id, lock);
    if (!found) {
      throw new DetectionPatternsException(
        DetectionPatternsErrorCode.PatternNotFound,
        `detection pattern ${id} not found`,
      );
    }
    return found;
  }
}

/** D53, GR13: what the linear-time engine refuses is a 400 naming the reason (D12). */
function mustRunLinear(value: DetectionPatternChange): void {
  const compiled = compileLinear(value.pattern, value.flags);
  if (!compiled.ok) {
    const field = compiled.reason.startsWith('flags') ? 'flags' : 'pattern';
    throw HttpProblem.validation([{ field, message: compiled.reason }]);
  }
}

function targetOf(p: StoredDetectionPattern) {
  return { kind: DETECTION_PATTERN_KIND, id: p.id, name: `${p.set}/${p.label}` };
}

export function toResponse(p: StoredDetectionPattern): DetectionPatternResponse {
  return {
    id: p.id,
    set: p.set,
    label: p.label,
    pattern: p.pattern,
    flags: p.flags,
    mode: p.mode,
    scope: p.scope,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
