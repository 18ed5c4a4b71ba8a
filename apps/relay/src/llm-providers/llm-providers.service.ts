import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Page } from '@agp/http';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { CatalogEntry } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { RegistryErrorCode, RegistryException } from '../registry/registry.exception';
import { CreateLlmProviderDto } from './dto/create-llm-provider.dto';
import { UpdateLlmProviderDto } from './dto/update-llm-provider.dto';
import { LLM_PROVIDERS_CATALOG } from './llm-providers.constants';

/**
 * LLM providers (D39): the base URL checked against the egress rules (D37), the API key sealed
 * before it is stored (answered as `"********"`), the models and the failover timeout.
 */
@Injectable()
export class LlmProvidersService {
  constructor(
    @Inject(LLM_PROVIDERS_CATALOG) private readonly catalog: CatalogService,
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    private readonly cipher: CredentialCipher,
  ) {}

  create(ctx: RequestContext, dto: CreateLlmProviderDto): Promise<CatalogEntry> {
    this.checkUrl(dto.baseUrl);
    return this.catalog.create(ctx, this.sealed(dto));
  }

  list(ctx: RequestContext, query: ListCatalogQueryDto): Promise<Page<CatalogEntry>> {
    return this.catalog.list(ctx, query);
  }

  get(ctx: RequestContext, id: string): Promise<CatalogEntry> {
    return this.catalog.get(ctx, id);
  }

  update(ctx: RequestContext, id: string, dto: UpdateLlmProviderDto): Promise<CatalogEntry> {
    if (dto.baseUrl !== undefined) {
      this.checkUrl(dto.baseUrl);
    }
    return this.catalog.update(ctx, id, this.sealed(dto));
  }

  remove(ctx: RequestContext, id: string): Promise<void> {
    return this.catalog.remove(ctx, id);
  }

  private sealed<T extends CreateLlmProviderDto | UpdateLlmProviderDto>(
    dto: T,
  ): Record<string, unknown> & { name: string } {
    const values: Record<string, unknown> = { ...dto };
    if (typeof dto.apiKey === 'string') {
      values.apiKey = this.cipher.encrypt(dto.apiKey);
    }
    for (const key of Object.keys(values)) {
      if (values[key] === undefined) {
        delete values[key];
      }
    }
    return values as Record<string, unknown> & { name: string };
  }

  private checkUrl(url: string): void {
    const refusal = checkEgressUrl(url, this.egress);
    if (refusal) {
      throw new RegistryException(RegistryErrorCode.InvalidReference, 'invalid request: baseUrl', [
        { field: 'baseUrl', message: `baseUrl is not allowed (D37): ${refusal}` },
      ]);
    }
  }
}
