import { FactoryProvider } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { HttpProblem, Page } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { CatalogOperations } from '../registry/catalog.controller';
import { catalogFactory } from '../registry/catalog.provider';
import { CatalogEntry } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { RegistryErrorCode, RegistryException } from '../registry/registry.exception';
import {
  ChannelConfigError,
  ChannelSecrets,
  ChannelSettings,
  PreparedConfig,
  newChannelKey,
  newStandardWebhookSecret,
  prepareConfig,
  readableConfig,
} from './channel-config';
import { CHANNELS_CATALOG, ChannelKind } from './channels.constants';
import { ChannelsRepository, SECRETS_READ } from './channels.repository';

/** CH19: what a rotation answers, the new secret this once. */
export interface ChannelSecretRotation {
  channelId: string;
  kind: string;
  /** `signingSecret` (WEBHOOK) or `channelKey` (WEB). */
  secretName: string;
  secret: string;
  /** Until when the replaced secret still counts; null when the grace was 0. */
  previousValidUntil: string | null;
  rotatedAt: string;
}

/** The secrets each kind keeps, as a read names them (masked, D37). */
const SECRET_NAMES: Partial<Record<ChannelKind, string[]>> = {
  SLACK: ['signingSecret', 'botToken'],
  WEBHOOK: ['signingSecret'],
  WEB: ['channelKey'],
};

/**
 * D56, CH1: config validated per kind, URLs under D37, secrets sealed write-only; a webhook's
 * `whsec_` or web chat key is answered once, by the write that made it.
 */
export class ChannelsService implements CatalogOperations<CatalogEntry> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly database: Database,
    private readonly egress: EgressOptions,
    private readonly cipher: CredentialCipher,
    private readonly repository = new ChannelsRepository(),
  ) {}

  async create(ctx: RequestContext, values: Record<string, unknown>): Promise<CatalogEntry> {
    const kind = values.kind as ChannelKind;
    const prepared = this.prepared(kind, values.config as Record<string, unknown> | undefined);
    const entry = await this.catalog.create(ctx, {
      ...this.stored(values, prepared),
      name: String(values.name),
    });
    return readable(entry, prepared.answeredOnce);
  }

  async list(ctx: RequestContext, query: ListCatalogQueryDto): Promise<Page<CatalogEntry>> {
    const page = await this.catalog.list(ctx, query);
    return { ...page, items: page.items.map((entry) => readable(entry)) };
  }

  async get(ctx: RequestContext, id: string): Promise<CatalogEntry> {
    return readable(await this.catalog.get(ctx, id));
  }

  async update(
    ctx: RequestContext,
    id: string,
    values: Record<string, unknown>,
  ): Promise<CatalogEntry> {
    if (values.kind === undefined && values.config === undefined) {
      return readable(await this.catalog.update(ctx, id, values));
    }
    const before = await this.storedRow(ctx.tenantId, id);
    const kind = (values.kind ?? before.kind) as ChannelKind;
    // A new kind starts afresh: the old kind's secrets mean nothing to it.
    const kept = kind === before.kind ? before.secrets : {};
    const config =
      values.config === undefined
        ? kind === before.kind
          ? (before.settings as Record<string, unknown>)
          : undefined
        : ((values.config as Record<string, unknown> | null) ?? undefined);
    const prepared = this.prepared(kind, config, kept);
    const entry = await this.catalog.update(ctx, id, {
      ...this.stored(values, prepared),
      [SECRETS_READ]: before.sealed,
    });
    return readable(entry, prepared.answeredOnce);
  }

  /**
   * CH19: a new `whsec_` (WEBHOOK) or key (WEB); the old one keeps counting for `graceSeconds`.
   * SLACK's signing secret is Slack's to rotate (a PATCH of `config.signingSecret` takes the new one).
   */
  async rotateSecret(
    ctx: RequestContext,
    id: string,
    graceSeconds: number,
  ): Promise<ChannelSecretRotation> {
    const before = await this.storedRow(ctx.tenantId, id);
    const name =
      before.kind === 'WEBHOOK'
        ? 'signingSecret'
        : before.kind === 'WEB'
          ? 'channelKey'
          : undefined;
    if (!name) {
      throw new HttpProblem(
        409,
        'not-rotatable',
        before.kind === 'SLACK'
          ? 'a SLACK channel’s signing secret is rotated in Slack: PATCH config.signingSecret with the new one'
          : `a ${before.kind} channel has no secret the platform made`,
      );
    }
    const now = new Date();
    const secret = name === 'signingSecret' ? newStandardWebhookSecret() : newChannelKey();
    const old = before.secrets[name];
    const until = new Date(now.getTime() + graceSeconds * 1000);
    const kept = graceSeconds > 0 && old !== undefined;
    const secrets: ChannelSecrets = {
      [name]: secret,
      ...(kept
        ? {
            [name === 'signingSecret' ? 'previousSigningSecret' : 'previousChannelKey']: old,
            previousUntil: until.toISOString(),
          }
        : {}),
    };
    await this.catalog.update(ctx, id, {
      secrets: this.cipher.encrypt(JSON.stringify(secrets)),
      [SECRETS_READ]: before.sealed,
    });
    return {
      channelId: id,
      kind: before.kind,
      secretName: name,
      secret,
      previousValidUntil: kept ? until.toISOString() : null,
      rotatedAt: now.toISOString(),
    };
  }

  remove(ctx: RequestContext, id: string): Promise<void> {
    return this.catalog.remove(ctx, id);
  }

  private prepared(
    kind: ChannelKind,
    config: Record<string, unknown> | undefined,
    kept: ChannelSecrets = {},
  ): PreparedConfig {
    let prepared: PreparedConfig;
    try {
      prepared = prepareConfig(kind, config, kept);
      if (
        kind === 'SLACK' &&
        config &&
        (!prepared.secrets.signingSecret || !prepared.secrets.botToken)
      ) {
        const field = prepared.secrets.signingSecret ? 'botToken' : 'signingSecret';
        throw new ChannelConfigError(`config.${field}`, 'is required for a SLACK channel');
      }
      for (const field of ['apiBaseUrl', 'url'] as const) {
        const url = prepared.settings[field];
        const refusal = url ? checkEgressUrl(url, this.egress) : undefined;
        if (refusal) {
          throw new ChannelConfigError(`config.${field}`, `is not allowed (D37): ${refusal}`);
        }
      }
    } catch (error) {
      if (error instanceof ChannelConfigError) {
        throw new RegistryException(RegistryErrorCode.InvalidReference, 'invalid request: config', [
          { field: error.field, message: error.message },
        ]);
      }
      throw error;
    }
    return prepared;
  }

  private stored(
    values: Record<string, unknown>,
    prepared: PreparedConfig,
  ): Record<string, unknown> {
    const hasSecrets = Object.keys(prepared.secrets).length > 0;
    return {
      ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)),
      config: prepared.settings,
      secrets: hasSecrets ? this.cipher.encrypt(JSON.stringify(prepared.secrets)) : null,
    };
  }

  private async storedRow(
    tenantId: string,
    id: string,
  ): Promise<{
    kind: string;
    settings: ChannelSettings;
    secrets: ChannelSecrets;
    sealed: string | null;
  }> {
    const stored = await this.database.inTenant(tenantId, (tx) =>
      this.repository.stored(tx, tenantId, id),
    );
    if (!stored) {
      throw new RegistryException(RegistryErrorCode.NotFound, `channel ${id} not found`);
    }
    return {
      kind: stored.kind,
      settings: stored.settings,
      sealed: stored.sealedSecrets,
      secrets: stored.sealedSecrets
        ? (JSON.parse(this.cipher.decrypt(stored.sealedSecrets)) as ChannelSecrets)
        : {},
    };
  }
}

/** An entry as answered: `config` with its secrets masked (or answered once), no `secrets`. */
function readable(entry: CatalogEntry, answeredOnce: Partial<ChannelSecrets> = {}): CatalogEntry {
  const { secrets, config, ...rest } = entry;
  const names = secrets ? (SECRET_NAMES[entry.kind as ChannelKind] ?? []) : [];
  return {
    ...rest,
    config: readableConfig(config as ChannelSettings | undefined, names, answeredOnce),
  };
}

const channels = new ChannelsRepository();

/**
 * CH19: secrets written from a read (a change of settings keeps them, a rotation replaces them)
 * go only if nothing changed them since, checked under the row's lock in the write's transaction;
 * otherwise a secret just answered once could be lost to a concurrent write.
 */
async function unchangedSecrets(
  tx: Tx,
  tenantId: string,
  values: Record<string, unknown>,
  before?: CatalogEntry,
): Promise<Record<string, unknown>> {
  if (!(SECRETS_READ in values) || !before) {
    return values;
  }
  const { [SECRETS_READ]: read, ...rest } = values;
  if ((await channels.lockedSecrets(tx, tenantId, before.id)) !== read) {
    throw new HttpProblem(
      409,
      'changed-meanwhile',
      `channel ${before.id} was changed meanwhile: read it and try again`,
    );
  }
  return rest;
}

export const channelsProvider: FactoryProvider<ChannelsService> = {
  provide: CHANNELS_CATALOG,
  inject: [RELAY_DATABASE, RELAY_OUTBOX, EGRESS_OPTIONS, CredentialCipher],
  useFactory: (
    database: Database,
    outbox: EventOutbox,
    egress: EgressOptions,
    cipher: CredentialCipher,
  ) =>
    new ChannelsService(
      catalogFactory(
        {
          table: 'channels',
          columns: {
            name: 'name',
            description: 'description',
            kind: 'kind',
            config: 'config',
            secrets: 'secrets_ciphertext',
          },
          objects: ['config'],
          // D37: the sealed secrets never leave the repository.
          writeOnly: ['secrets'],
        },
        { noun: 'channel', partyType: 'CHANNEL', prepare: unchangedSecrets },
      )(database, outbox),
      database,
      egress,
      cipher,
    ),
};
