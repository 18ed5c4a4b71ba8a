import { randomUUID } from 'node:crypto';

import { ChangeInput, changedFields, recordAdminChange } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { AdminChange, AuditEventType } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { registryViewerOf } from '../discovery/visibility';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { CatalogEntry, CatalogRepository, WRITE_ONLY_MASK } from './catalog.repository';
import { RegistryErrorCode, RegistryException } from './registry.exception';

export interface CatalogOptions {
  noun: string;
  /** Without one, changes are ADMIN_CHANGE (D42). */
  lifecycleEvent?: Extract<AuditEventType, 'MCP_LIFECYCLE' | 'LLM_LIFECYCLE'>;
  partyType: string;
  /** The detail naming the entry in its lifecycle event (`mcpServerId`, the default by type). */
  idDetail?: string;
  /** In the write's transaction: the values to store, or throws what is wrong with them (D52). */
  prepare?: (
    tx: Tx,
    tenantId: string,
    values: Record<string, unknown>,
    before?: CatalogEntry,
  ) => Promise<Record<string, unknown>>;
  /** In the removal's transaction: throws when something still needs the entry. */
  beforeRemove?: (tx: Tx, tenantId: string, entry: CatalogEntry) => Promise<void>;
}

/** Issue 6 §1, D5: each change records its lifecycle event in the same transaction. */
export class CatalogService {
  constructor(
    private readonly database: Database,
    private readonly outbox: EventOutbox,
    private readonly repository: CatalogRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly options: CatalogOptions,
  ) {}

  async create(
    ctx: RequestContext,
    values: Record<string, unknown> & { name: string },
  ): Promise<CatalogEntry> {
    const id = randomUUID();
    return this.uniquely(values.name, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const stored = (await this.options.prepare?.(tx, ctx.tenantId, values)) ?? values;
        await this.repository.insert(tx, ctx.tenantId, id, stored);
        const entry = (await this.repository.find(tx, ctx.tenantId, id))!;
        await this.record(tx, ctx, 'CREATED', { after: entry, given: values });
        return entry;
      }),
    );
  }

  async list(
    ctx: RequestContext,
    query: PageQueryDto & { name?: string },
  ): Promise<Page<CatalogEntry>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.repository.list(
        tx,
        ctx.tenantId,
        query.name,
        query.pageSize,
        pageOffset(query),
        registryViewerOf(ctx),
      ),
    );
    return pageOf(items, total, query);
  }

  async get(ctx: RequestContext, id: string): Promise<CatalogEntry> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      this.mustFind(await this.repository.find(tx, ctx.tenantId, id, registryViewerOf(ctx)), id),
    );
  }

  async update(
    ctx: RequestContext,
    id: string,
    values: Record<string, unknown>,
  ): Promise<CatalogEntry> {
    return this.uniquely(typeof values.name === 'string' ? values.name : '', () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const before = this.mustFind(
          await this.repository.find(tx, ctx.tenantId, id, registryViewerOf(ctx)),
          id,
        );
        const stored = (await this.options.prepare?.(tx, ctx.tenantId, values, before)) ?? values;
        await this.repository.update(tx, ctx.tenantId, id, stored);
        const entry = (await this.repository.find(tx, ctx.tenantId, id))!;
        await this.record(tx, ctx, 'UPDATED', { before, after: entry, given: values });
        return entry;
      }),
    );
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const entry = this.mustFind(
        await this.repository.find(tx, ctx.tenantId, id, registryViewerOf(ctx)),
        id,
      );
      await this.options.beforeRemove?.(tx, ctx.tenantId, entry);
      await this.repository.delete(tx, ctx.tenantId, id);
      // D32: who may talk to an entry that is gone is gone with it.
      await this.subscriptions.deleteNaming(tx, ctx.tenantId, id);
      await this.record(tx, ctx, 'DELETED', { before: entry });
    });
  }

  /** The change with its changed fields (D42), in the lifecycle type of the catalog or ADMIN_CHANGE. */
  private async record(
    tx: Parameters<CatalogRepository['find']>[0],
    ctx: RequestContext,
    change: AdminChange,
    values: { before?: CatalogEntry; after?: CatalogEntry; given?: Record<string, unknown> },
  ): Promise<void> {
    const entry = (values.after ?? values.before)!;
    const changes: ChangeInput = {
      target: { kind: this.options.partyType, id: entry.id, name: entry.name },
      before: values.before,
      after: values.after,
      // D37: a write-only secret reads back masked, so a new one looks like the old one.
      changed: Object.keys(values.given ?? {}).filter(
        (field) => values.after?.[field] === WRITE_ONLY_MASK,
      ),
    };
    if (!this.options.lifecycleEvent) {
      await recordAdminChange(this.outbox, tx, ctx, change, changes);
      return;
    }
    await this.outbox.add(tx, this.options.lifecycleEvent, eventContext(ctx), {
      actor: actorOf(ctx),
      sink: { type: this.options.partyType, id: entry.id, label: entry.name },
      summary: `${this.options.noun} ${entry.name} ${change.toLowerCase()}`,
      details: {
        change,
        [this.options.idDetail ??
        (this.options.partyType === 'MCP_SERVER' ? 'mcpServerId' : 'llmGatewayId')]: entry.id,
        name: entry.name,
        ...changedFields(changes),
      },
    });
  }

  private mustFind(entry: CatalogEntry | undefined, id: string): CatalogEntry {
    if (!entry) {
      throw new RegistryException(
        RegistryErrorCode.NotFound,
        `${this.options.noun} ${id} not found`,
      );
    }
    return entry;
  }

  private async uniquely<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new RegistryException(
          RegistryErrorCode.NameTaken,
          `a ${this.options.noun} named ${name} already exists`,
        );
      }
      throw error;
    }
  }
}
