import { Inject, Injectable } from '@nestjs/common';
import { Page } from '@agp/http';
import { RequestContext } from '@agp/auth';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { CatalogEntry } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { RegistryErrorCode, RegistryException } from '../registry/registry.exception';
import { CredentialCipher } from './credential-cipher';
import { CreateMcpServerDto } from './dto/create-mcp-server.dto';
import { UpdateMcpServerDto } from './dto/update-mcp-server.dto';
import { MCP_SERVERS_CATALOG } from './mcp-servers.constants';

/**
 * MCP servers of the registry (R10) with what the relay needs to reach them (D37): the URL checked
 * against the egress rules, the upstream credential sealed before it is stored (the catalog
 * answers it as `"********"`), the credential header and the timeout.
 */
@Injectable()
export class McpServersService {
  constructor(
    @Inject(MCP_SERVERS_CATALOG) private readonly catalog: CatalogService,
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    private readonly cipher: CredentialCipher,
  ) {}

  create(ctx: RequestContext, dto: CreateMcpServerDto): Promise<CatalogEntry> {
    this.checkUrl(dto.url);
    return this.catalog.create(ctx, this.sealed(dto));
  }

  list(ctx: RequestContext, query: ListCatalogQueryDto): Promise<Page<CatalogEntry>> {
    return this.catalog.list(ctx, query);
  }

  get(ctx: RequestContext, id: string): Promise<CatalogEntry> {
    return this.catalog.get(ctx, id);
  }

  update(ctx: RequestContext, id: string, dto: UpdateMcpServerDto): Promise<CatalogEntry> {
    if (dto.url !== undefined) {
      this.checkUrl(dto.url);
    }
    return this.catalog.update(ctx, id, this.sealed(dto));
  }

  remove(ctx: RequestContext, id: string): Promise<void> {
    return this.catalog.remove(ctx, id);
  }

  /** The DTO's fields as the catalog stores them: the credential sealed, absent ones left out. */
  private sealed<T extends CreateMcpServerDto | UpdateMcpServerDto>(
    dto: T,
  ): Record<string, unknown> & { name: string } {
    const values: Record<string, unknown> = { ...dto };
    if (typeof dto.credential === 'string') {
      values.credential = this.cipher.encrypt(dto.credential);
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
      throw new RegistryException(RegistryErrorCode.InvalidReference, `invalid request: url`, [
        { field: 'url', message: `url is not allowed (D37): ${refusal}` },
      ]);
    }
  }
}
