import { FactoryProvider } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import { Page } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { CatalogOperations } from './catalog.controller';
import { catalogFactory } from './catalog.provider';
import { CatalogEntry, CatalogSpec } from './catalog.repository';
import { CatalogOptions, CatalogService } from './catalog.service';
import { ListCatalogQueryDto } from './list-catalog-query.dto';
import { RegistryErrorCode, RegistryException } from './registry.exception';

/** Which fields of an upstream's entry hold the address the relay connects to and its secret. */
export interface UpstreamFields {
  /** `url` of an MCP server, `baseUrl` of an LLM provider. */
  url: string;
  /** `credential` of an MCP server, `apiKey` of an LLM provider: write-only (D37). */
  secret: string;
}

/** D37: URL checked when stored, the secret sealed and answered as `"********"`. */
export class UpstreamCatalogService implements CatalogOperations<CatalogEntry> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly egress: EgressOptions,
    private readonly cipher: CredentialCipher,
    private readonly fields: UpstreamFields,
  ) {}

  create(ctx: RequestContext, values: Record<string, unknown>): Promise<CatalogEntry> {
    this.checkUrl(values);
    return this.catalog.create(ctx, this.sealed(values));
  }

  list(ctx: RequestContext, query: ListCatalogQueryDto): Promise<Page<CatalogEntry>> {
    return this.catalog.list(ctx, query);
  }

  get(ctx: RequestContext, id: string): Promise<CatalogEntry> {
    return this.catalog.get(ctx, id);
  }

  update(ctx: RequestContext, id: string, values: Record<string, unknown>): Promise<CatalogEntry> {
    this.checkUrl(values);
    return this.catalog.update(ctx, id, this.sealed(values));
  }

  remove(ctx: RequestContext, id: string): Promise<void> {
    return this.catalog.remove(ctx, id);
  }

  private sealed(values: Record<string, unknown>): Record<string, unknown> & { name: string } {
    const stored = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
    const secret = stored[this.fields.secret];
    if (typeof secret === 'string') {
      stored[this.fields.secret] = this.cipher.encrypt(secret);
    }
    return stored as Record<string, unknown> & { name: string };
  }

  private checkUrl(values: Record<string, unknown>): void {
    const field = this.fields.url;
    const url = values[field];
    if (typeof url !== 'string') {
      return;
    }
    const refusal = checkEgressUrl(url, this.egress);
    if (refusal) {
      throw new RegistryException(RegistryErrorCode.InvalidReference, `invalid request: ${field}`, [
        { field, message: `${field} is not allowed (D37): ${refusal}` },
      ]);
    }
  }
}

export function upstreamCatalogProvider(
  provide: symbol,
  spec: CatalogSpec,
  options: CatalogOptions,
  fields: UpstreamFields,
): FactoryProvider<UpstreamCatalogService> {
  const catalogOf = catalogFactory(spec, options);
  return {
    provide,
    inject: [RELAY_DATABASE, RELAY_OUTBOX, EGRESS_OPTIONS, CredentialCipher],
    useFactory: (
      database: Database,
      outbox: EventOutbox,
      egress: EgressOptions,
      cipher: CredentialCipher,
    ) => new UpstreamCatalogService(catalogOf(database, outbox), egress, cipher, fields),
  };
}
