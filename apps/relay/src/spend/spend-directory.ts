import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database, Tx, queryNamed } from '@agp/database';
import { EVENT_BROADCAST, EventBroadcast, StopListening } from '@agp/messaging';

import { RELAY_DATABASE } from '../database/tokens';
import { ExpiringCache } from '../traffic/pipeline/expiring-cache';
import { SpendSubject } from './budgets.repository';
import { ModelPricesRepository } from './model-prices.repository';
import { BUDGET_KIND, MODEL_PRICE_KIND, ModelPrice } from './spend.types';

/**
 * T2's net, as the traffic directory's (R41: its one second, T115): a replica that missed a
 * broadcast learns within it.
 */
export const SPEND_DIRECTORY_TTL_MS = 1_000;
/** More rows than this in a tenant: each call reads what it needs, as before R40. */
const MAX_ROWS = 1_000;

/**
 * R40: what a tenant's budgets count and what its models cost, read once per tenant rather than
 * per call. As DecisionCache: an ADMIN_CHANGE of kind BUDGET or MODEL_PRICE drops the tenant's
 * entry (on the changing replica before its commit returns), a gap drops all, the TTL is only the
 * net. Only the answers that need no lock are cached: SP8 still locks and sums in its transaction.
 */
@Injectable()
export class SpendDirectory implements OnApplicationBootstrap, OnApplicationShutdown {
  /** `TENANT` or `SCOPE:target` per budget; undefined: too many to keep. */
  private readonly targets = new ExpiringCache<ReadonlySet<string> | undefined>(
    SPEND_DIRECTORY_TTL_MS,
  );
  /** Prices by model; undefined: too many to keep. */
  private readonly prices = new ExpiringCache<ReadonlyMap<string, ModelPrice> | undefined>(
    SPEND_DIRECTORY_TTL_MS,
  );
  private stopListening?: StopListening;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(EVENT_BROADCAST) private readonly broadcast: EventBroadcast,
    private readonly priceRows: ModelPricesRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = await this.broadcast.listen(['ADMIN_CHANGE'], {
      onEvent: (envelope) => {
        const sink = (envelope.data as { sink?: { type?: unknown } } | undefined)?.sink;
        if (sink?.type === BUDGET_KIND) {
          this.targets.invalidate((tenantId) => tenantId === envelope.tenantId);
        } else if (sink?.type === MODEL_PRICE_KIND) {
          this.prices.invalidate((tenantId) => tenantId === envelope.tenantId);
        }
      },
      onGap: () => {
        this.targets.invalidate();
        this.prices.invalidate();
      },
    });
  }

  onApplicationShutdown(): void {
    this.stopListening?.();
  }

  /** False only when no budget of the tenant counts `subject`'s calls (a failed read: true). */
  async mayCount(subject: SpendSubject): Promise<boolean> {
    const targets = await this.targets
      .get(subject.tenantId, () => this.readTargets(subject.tenantId))
      .catch(() => undefined);
    return (
      targets === undefined ||
      targets.has('TENANT') ||
      targets.has(`AGENT:${subject.agentId}`) ||
      (subject.subscriptionId !== undefined &&
        targets.has(`SUBSCRIPTION:${subject.subscriptionId}`)) ||
      (subject.llmGatewayId !== undefined && targets.has(`LLM_GATEWAY:${subject.llmGatewayId}`))
    );
  }

  /**
   * SP4: the first of `models` that has a price. A miss reads the tenant's prices in `tx` (the
   * caller's transaction holds a connection already: a second one could wait on a full pool).
   */
  async firstPriced(tx: Tx, tenantId: string, models: string[]): Promise<ModelPrice | undefined> {
    const prices = await this.prices
      .get(tenantId, () => this.readPrices(tx, tenantId))
      .catch(() => undefined);
    if (prices === undefined) {
      return this.priceRows.firstPriced(tx, tenantId, models);
    }
    for (const model of models) {
      const price = prices.get(model);
      if (price) {
        return price;
      }
    }
    return undefined;
  }

  private readTargets(tenantId: string): Promise<ReadonlySet<string> | undefined> {
    return this.database.inTenant(tenantId, async (tx) => {
      const rows: Array<{ scope: string; target_id: string | null }> = await queryNamed(
        tx,
        `SELECT DISTINCT scope, target_id FROM relay.budgets WHERE tenant_id = $1 LIMIT $2`,
        [tenantId, MAX_ROWS + 1],
      );
      if (rows.length > MAX_ROWS) {
        return undefined;
      }
      return new Set(
        rows.map((r) => (r.scope === 'TENANT' ? 'TENANT' : `${r.scope}:${String(r.target_id)}`)),
      );
    });
  }

  private async readPrices(
    tx: Tx,
    tenantId: string,
  ): Promise<ReadonlyMap<string, ModelPrice> | undefined> {
    const prices = await this.priceRows.all(tx, tenantId, MAX_ROWS + 1);
    return prices.length > MAX_ROWS ? undefined : new Map(prices.map((p) => [p.model, p]));
  }
}
