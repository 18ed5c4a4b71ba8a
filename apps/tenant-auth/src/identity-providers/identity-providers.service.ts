import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { tokenIssuer } from '@agp/config';
import { ChangeTarget } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';
import { SecretSealer } from '@agp/sealing';

import { IdentityException } from '../common/identity.exception';
import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_OUTBOX } from '../database/tokens';
import { GroupsRepository } from '../groups/groups.repository';
import { SECRET_SEALER } from '../keys/signing-keys.service';
import { DomainVerifier, newDomainToken, normaliseDomain } from './domain-verification';
import { CreateIdentityProviderDto } from './dto/create-identity-provider.dto';
import { IdentityProviderResponseDto } from './dto/identity-provider-response.dto';
import { UpdateIdentityProviderDto } from './dto/update-identity-provider.dto';
import { EmailDomainRecord, IdentityProvider } from './identity-provider.types';
import { IdentityProvidersRepository } from './identity-providers.repository';

/** A provider as the target of its ADMIN_CHANGE (D42); its client secret is recorded redacted. */
function providerTarget(provider: IdentityProvider): ChangeTarget {
  return { kind: 'IDENTITY_PROVIDER', id: provider.id, name: provider.alias };
}

export const DOMAIN_VERIFIER = Symbol.for('agp:tenant-auth:domain-verifier');

/** Identity providers (D26, D29) and their e-mail domains' verification. Operation 5 is `list`. */
@Injectable()
export class IdentityProvidersService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_OUTBOX) private readonly outbox: EventOutbox,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    @Inject(SECRET_SEALER) private readonly sealer: SecretSealer,
    @Inject(DOMAIN_VERIFIER) private readonly verifier: DomainVerifier,
    private readonly providers: IdentityProvidersRepository,
    private readonly groups: GroupsRepository,
  ) {}

  list({ principal }: RequestContext): Promise<IdentityProviderResponseDto[]> {
    return this.database.inTenant(principal.tenantId, async (tx) =>
      (await this.providers.list(tx, principal.tenantId)).map(IdentityProviderResponseDto.of),
    );
  }

  get({ principal }: RequestContext, id: string): Promise<IdentityProviderResponseDto> {
    return this.database.inTenant(principal.tenantId, async (tx) =>
      IdentityProviderResponseDto.of(await this.found(tx, principal.tenantId, id)),
    );
  }

  create(
    caller: RequestContext,
    dto: CreateIdentityProviderDto,
  ): Promise<IdentityProviderResponseDto> {
    const { principal } = caller;
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        await this.assertGroups(tx, principal.tenantId, dto.groupMappings ?? {});
        const id = randomUUID();
        const provider = {
          id,
          tenantId: principal.tenantId,
          alias: dto.alias,
          displayName: dto.displayName,
          enabled: dto.enabled ?? true,
          type: dto.config.type,
          clientId: dto.config.clientId,
          clientSecretSealed: dto.config.clientSecret
            ? this.sealer.encrypt(dto.config.clientSecret)
            : null,
          issuerUrl: dto.config.issuer ?? null,
          groupMappings: dto.groupMappings ?? {},
          emailDomains: this.domains([], dto.emailDomains ?? []),
          redirectUri:
            dto.redirectUri ?? `${tokenIssuer(this.env)}/identity-providers/${id}/callback`,
          createdBy: principal.subject,
        };
        const saved = await this.providers.save(tx, provider);
        await recordAdminChange(this.outbox, tx, caller, 'CREATED', {
          target: providerTarget(saved),
          after: saved,
        });
        return IdentityProviderResponseDto.of(saved);
      }),
    );
  }

  update(
    caller: RequestContext,
    id: string,
    dto: UpdateIdentityProviderDto,
  ): Promise<IdentityProviderResponseDto> {
    const { principal } = caller;
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const provider = await this.found(tx, principal.tenantId, id);
      const before = { ...provider };
      if (dto.groupMappings) {
        await this.assertGroups(tx, principal.tenantId, dto.groupMappings);
        provider.groupMappings = dto.groupMappings;
      }
      if (dto.emailDomains) {
        provider.emailDomains = this.domains(provider.emailDomains, dto.emailDomains);
      }
      const config = dto.config ?? {};
      provider.type = config.type ?? provider.type;
      provider.clientId = config.clientId ?? provider.clientId;
      provider.issuerUrl = config.issuer ?? provider.issuerUrl;
      if (config.clientSecret !== undefined) {
        // "" or null removes the secret (D26: it is never read back, only replaced or removed).
        provider.clientSecretSealed = config.clientSecret
          ? this.sealer.encrypt(config.clientSecret)
          : null;
      }
      provider.displayName = dto.displayName ?? provider.displayName;
      provider.enabled = dto.enabled ?? provider.enabled;
      provider.redirectUri = dto.redirectUri ?? provider.redirectUri;
      return this.saved(tx, caller, before, provider);
    });
  }

  async remove(caller: RequestContext, id: string): Promise<void> {
    const { principal } = caller;
    await this.database.inTenant(principal.tenantId, async (tx) => {
      const provider = await this.found(tx, principal.tenantId, id);
      await this.providers.remove(tx, principal.tenantId, id);
      await recordAdminChange(this.outbox, tx, caller, 'DELETED', {
        target: providerTarget(provider),
        before: provider,
      });
    });
  }

  /** Looks the TXT record up and records the outcome (verifiedAt, lastCheckedAt, lastCheckError). */
  async verifyDomain(
    caller: RequestContext,
    id: string,
    domain: string,
  ): Promise<IdentityProviderResponseDto> {
    const { principal } = caller;
    const name = normaliseDomain(domain);
    const record = await this.database.inTenant(principal.tenantId, async (tx) =>
      this.domainOf(await this.found(tx, principal.tenantId, id), name),
    );
    // The look-up happens outside any transaction: DNS may take seconds.
    const outcome = await this.verifier.check(record.domain, record.token);
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const provider = await this.found(tx, principal.tenantId, id);
      const before = { ...provider };
      const current = this.domainOf(provider, name);
      const now = new Date().toISOString();
      current.lastCheckedAt = now;
      current.lastCheckError = outcome.isVerified ? null : outcome.error;
      current.verifiedAt = outcome.isVerified ? now : current.verifiedAt;
      provider.emailDomains = provider.emailDomains.map((d) => (d.domain === name ? current : d));
      return this.saved(tx, caller, before, provider);
    });
  }

  private async saved(
    tx: Tx,
    caller: RequestContext,
    before: IdentityProvider,
    provider: IdentityProvider,
  ): Promise<IdentityProviderResponseDto> {
    const saved = await this.providers.save(tx, provider);
    await recordAdminChange(this.outbox, tx, caller, 'UPDATED', {
      target: providerTarget(saved),
      before,
      after: saved,
    });
    return IdentityProviderResponseDto.of(saved);
  }

  private domainOf(provider: IdentityProvider, domain: string): EmailDomainRecord {
    const record = provider.emailDomains.find((d) => d.domain === domain);
    if (!record) {
      throw IdentityException.notFound('e-mail domain', domain);
    }
    return { ...record };
  }

  private domains(current: EmailDomainRecord[], wanted: string[]): EmailDomainRecord[] {
    return [...new Set(wanted.map(normaliseDomain))].map(
      (domain) =>
        current.find((d) => d.domain === domain) ?? {
          domain,
          token: newDomainToken(),
          verifiedAt: null,
          lastCheckedAt: null,
          lastCheckError: null,
        },
    );
  }

  /** D29: every mapped group must be one of the tenant's (400 naming the provider group otherwise). */
  private async assertGroups(
    tx: Tx,
    tenantId: string,
    mappings: Record<string, string[]>,
  ): Promise<void> {
    const ids = [...new Set(Object.values(mappings).flat())];
    const known = await this.groups.existingIds(tx, tenantId, ids);
    for (const [name, groupIds] of Object.entries(mappings)) {
      const unknown = groupIds.find((groupId) => !known.has(groupId));
      if (unknown) {
        throw IdentityException.invalidReference(
          `groupMappings.${name}`,
          `unknown group ${unknown}`,
        );
      }
    }
  }

  private async found(tx: Tx, tenantId: string, id: string): Promise<IdentityProvider> {
    const provider = await this.providers.findById(tx, tenantId, id);
    if (!provider) {
      throw IdentityException.notFound('identity provider', id);
    }
    return provider;
  }

  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw IdentityException.duplicate('an identity provider with this alias already exists');
      }
      throw error;
    }
  }
}
