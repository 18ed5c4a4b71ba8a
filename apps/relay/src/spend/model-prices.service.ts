import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { Database, Tx, isUniqueViolation } from '@agp/database';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CreateModelPriceDto, UpdateModelPriceDto } from './dto/model-price.dto';
import { ModelPriceChange, ModelPricesRepository } from './model-prices.repository';
import { SpendErrorCode, SpendException } from './spend.exception';
import { MODEL_PRICE_KIND, ModelPrice } from './spend.types';

/** A price as the API answers it (D60); amounts are decimal strings (SP2). */
export type ModelPriceResponse = Omit<ModelPrice, 'tenantId'>;

/** D60, D42: every change an ADMIN_CHANGE of kind MODEL_PRICE in its transaction. */
@Injectable()
export class ModelPricesService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly prices: ModelPricesRepository,
  ) {}

  async list(ctx: RequestContext, query: PageQueryDto): Promise<Page<ModelPriceResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.prices.list(tx, ctx.tenantId, query.pageSize, pageOffset(query)),
    );
    return pageOf(items.map(toResponse), total, query);
  }

  get(ctx: RequestContext, id: string): Promise<ModelPriceResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      toResponse(await this.mustFind(tx, ctx.tenantId, id)),
    );
  }

  async create(ctx: RequestContext, dto: CreateModelPriceDto): Promise<ModelPriceResponse> {
    const value: ModelPriceChange = {
      model: dto.model,
      currency: dto.currency,
      inputPerMillion: dto.inputPerMillion,
      outputPerMillion: dto.outputPerMillion,
      cachedInputPerMillion: dto.cachedInputPerMillion ?? null,
    };
    return this.writing(value.model, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const stored = await this.prices.insert(tx, randomUUID(), ctx.tenantId, value);
        await recordAdminChange(this.outbox, tx, ctx, 'CREATED', {
          target: targetOf(stored),
          after: toResponse(stored),
        });
        return toResponse(stored);
      }),
    );
  }

  async update(
    ctx: RequestContext,
    id: string,
    dto: UpdateModelPriceDto,
  ): Promise<ModelPriceResponse> {
    return this.writing(dto.model ?? undefined, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const current = await this.mustFind(tx, ctx.tenantId, id, true);
        const next: ModelPriceChange = {
          model: dto.model ?? current.model,
          currency: dto.currency ?? current.currency,
          inputPerMillion: dto.inputPerMillion ?? current.inputPerMillion,
          outputPerMillion: dto.outputPerMillion ?? current.outputPerMillion,
          cachedInputPerMillion:
            dto.cachedInputPerMillion === undefined
              ? current.cachedInputPerMillion
              : dto.cachedInputPerMillion,
        };
        const stored = await this.prices.update(tx, ctx.tenantId, id, next);
        await recordAdminChange(this.outbox, tx, ctx, 'UPDATED', {
          target: targetOf(stored),
          before: toResponse(current),
          after: toResponse(stored),
        });
        return toResponse(stored);
      }),
    );
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx.tenantId, id, true);
      await this.prices.delete(tx, ctx.tenantId, id);
      await recordAdminChange(this.outbox, tx, ctx, 'DELETED', {
        target: targetOf(current),
        before: toResponse(current),
      });
    });
  }

  /** One price per model (SP4): a second is a 409. */
  private async writing<T>(model: string | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new SpendException(
          SpendErrorCode.PriceTaken,
          `the tenant already has a price for the model ${JSON.stringify(model)}`,
        );
      }
      throw error;
    }
  }

  private async mustFind(tx: Tx, tenantId: string, id: string, lock = false): Promise<ModelPrice> {
    const found = await this.prices.find(tx, tenantId, id, lock);
    if (!found) {
      throw new SpendException(SpendErrorCode.PriceNotFound, `model price ${id} not found`);
    }
    return found;
  }
}

function targetOf(p: ModelPrice) {
  return { kind: MODEL_PRICE_KIND, id: p.id, name: p.model };
}

function toResponse(p: ModelPrice): ModelPriceResponse {
  return {
    id: p.id,
    model: p.model,
    currency: p.currency,
    inputPerMillion: p.inputPerMillion,
    outputPerMillion: p.outputPerMillion,
    cachedInputPerMillion: p.cachedInputPerMillion,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
