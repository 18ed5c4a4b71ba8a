import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { RequestContext } from '@agp/auth';
import { Page } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { CatalogEntry } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { RegistryErrorCode, RegistryException } from '../registry/registry.exception';
import { CreateLlmGatewayDto } from './dto/create-llm-gateway.dto';
import { UpdateLlmGatewayDto } from './dto/update-llm-gateway.dto';
import { LLM_GATEWAYS_CATALOG } from './llm-gateways.constants';
import { LlmGatewaysRepository } from './llm-gateways.repository';

/** LLM gateways (D39): each provider it names must be a provider of the tenant (400 otherwise). */
@Injectable()
export class LlmGatewaysService {
  constructor(
    @Inject(LLM_GATEWAYS_CATALOG) private readonly catalog: CatalogService,
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: LlmGatewaysRepository,
  ) {}

  async create(ctx: RequestContext, dto: CreateLlmGatewayDto): Promise<CatalogEntry> {
    await this.checkProviders(ctx.tenantId, dto.providers);
    return this.catalog.create(ctx, { ...dto });
  }

  list(ctx: RequestContext, query: ListCatalogQueryDto): Promise<Page<CatalogEntry>> {
    return this.catalog.list(ctx, query);
  }

  get(ctx: RequestContext, id: string): Promise<CatalogEntry> {
    return this.catalog.get(ctx, id);
  }

  async update(ctx: RequestContext, id: string, dto: UpdateLlmGatewayDto): Promise<CatalogEntry> {
    if (dto.providers !== undefined) {
      await this.checkProviders(ctx.tenantId, dto.providers);
    }
    return this.catalog.update(ctx, id, { ...dto });
  }

  remove(ctx: RequestContext, id: string): Promise<void> {
    return this.catalog.remove(ctx, id);
  }

  /** A provider removed after this check is skipped by the LLM path: nothing misrouted. */
  private async checkProviders(tenantId: string, providers: string[]): Promise<void> {
    const found = await this.database.inTenant(tenantId, (tx) =>
      this.repository.knownProviderIds(tx, tenantId, providers),
    );
    const unknown = providers.filter((id) => !found.has(id.toLowerCase()));
    if (unknown.length > 0) {
      throw new RegistryException(
        RegistryErrorCode.InvalidReference,
        'invalid request: providers',
        [
          {
            field: 'providers',
            message: `no LLM provider ${unknown.join(', ')} in this tenant (D39)`,
          },
        ],
      );
    }
  }
}
