import { createHash, randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { Database, Tx, isUniqueViolation } from '@agp/database';
import { EventOutbox } from '@agp/messaging';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';

import { EgressOptions } from '../common/egress-policy';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { CreateNotificationTargetDto } from './dto/create-notification-target.dto';
import { ListNotificationDeliveriesQueryDto } from './dto/list-notification-deliveries-query.dto';
import { UpdateNotificationTargetDto } from './dto/update-notification-target.dto';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { NotificationTargetsRepository } from './notification-targets.repository';
import {
  CreatedNotificationTargetResponse,
  NotificationDelivery,
  NotificationTargetResponse,
  SECRET_CONFIG_FIELDS,
  StoredTarget,
} from './notification.types';
import { NotificationsErrorCode, NotificationsException } from './notifications.exception';
import { newStandardWebhookSecret } from './standard-webhook-signature';
import { checkTargetConfig } from './target-configs';

/** D42: the kind of resource an ADMIN_CHANGE of a target names. */
const TARGET_KIND = 'NOTIFICATION_TARGET';
/** What a read shows in place of a credential that is set (the registry's WRITE_ONLY_MASK). */
const MASK = '********';

/** D58, D37, D42: credentials sealed and never answered (a WEBHOOK secret once, at creation). */
@Injectable()
export class NotificationTargetsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    private readonly targets: NotificationTargetsRepository,
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly cipher: CredentialCipher,
  ) {}

  async list(ctx: RequestContext, query: PageQueryDto): Promise<Page<NotificationTargetResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.targets.list(tx, ctx.tenantId, query.pageSize, pageOffset(query)),
    );
    return pageOf(items.map(toResponse), total, query);
  }

  async get(ctx: RequestContext, id: string): Promise<NotificationTargetResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      toResponse(await this.mustFind(tx, ctx.tenantId, id)),
    );
  }

  async create(
    ctx: RequestContext,
    dto: CreateNotificationTargetDto,
  ): Promise<CreatedNotificationTargetResponse> {
    const { config, secrets } = checkTargetConfig(dto.kind, dto.config, this.egress);
    // W16: the relay makes a WEBHOOK target's secret, answered in this response only.
    const secret = dto.kind === 'WEBHOOK' ? newStandardWebhookSecret() : undefined;
    const sealed = secret ? { ...secrets, secret } : secrets;
    const created = await this.writing(dto.name, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const target = await this.targets.insert(tx, {
          id: randomUUID(),
          tenantId: ctx.tenantId,
          name: dto.name,
          kind: dto.kind,
          events: dto.events,
          minSeverity: dto.minSeverity ?? null,
          isEnabled: dto.enabled ?? true,
          config,
          secretsCiphertext: this.cipher.encrypt(JSON.stringify(sealed)),
          secretFields: Object.keys(secrets),
        });
        await recordAdminChange(this.outbox, tx, ctx, 'CREATED', {
          target: { kind: TARGET_KIND, id: target.id, name: target.name },
          after: auditView(target, sealed),
        });
        return target;
      }),
    );
    return { ...toResponse(created), ...(secret ? { secret } : {}) };
  }

  async update(
    ctx: RequestContext,
    id: string,
    dto: UpdateNotificationTargetDto,
  ): Promise<NotificationTargetResponse> {
    const updated = await this.writing(dto.name, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const current = await this.mustFind(tx, ctx.tenantId, id, true);
        const kept = JSON.parse(this.cipher.decrypt(current.secretsCiphertext)) as Record<
          string,
          string
        >;
        let { config, secretsCiphertext, secretFields } = current;
        let secrets = kept;
        if (dto.config !== undefined) {
          // W15: credentials the new config leaves out are kept.
          const withKept = { ...pickSecrets(current, kept), ...dto.config };
          const split = checkTargetConfig(current.kind, withKept, this.egress);
          config = split.config;
          const sealed = kept.secret ? { ...split.secrets, secret: kept.secret } : split.secrets;
          secrets = sealed;
          secretsCiphertext = this.cipher.encrypt(JSON.stringify(sealed));
          secretFields = Object.keys(split.secrets);
        }
        const target = await this.targets.update(tx, ctx.tenantId, id, {
          name: dto.name ?? current.name,
          events: dto.events ?? current.events,
          minSeverity: dto.minSeverity === undefined ? current.minSeverity : dto.minSeverity,
          isEnabled: dto.enabled ?? current.isEnabled,
          config,
          secretsCiphertext,
          secretFields,
        });
        await recordAdminChange(this.outbox, tx, ctx, 'UPDATED', {
          target: { kind: TARGET_KIND, id, name: target.name },
          before: auditView(current, kept),
          after: auditView(target, secrets),
        });
        return target;
      }),
    );
    return toResponse(updated);
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx.tenantId, id, true);
      await this.targets.delete(tx, ctx.tenantId, id);
      await recordAdminChange(this.outbox, tx, ctx, 'DELETED', {
        target: { kind: TARGET_KIND, id, name: current.name },
        before: toResponse(current),
      });
    });
  }

  /** D58: `GET …/{targetId}/deliveries`, newest first, each with its attempts. */
  async listDeliveries(
    ctx: RequestContext,
    id: string,
    query: ListNotificationDeliveriesQueryDto,
  ): Promise<Page<NotificationDelivery>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.mustFind(tx, ctx.tenantId, id);
      return this.deliveries.list(
        tx,
        ctx.tenantId,
        id,
        query.status,
        query.pageSize,
        pageOffset(query),
      );
    });
    return pageOf(items, total, query);
  }

  /** A duplicate name within the tenant is a 409 (D12), whichever write hit it. */
  private async writing<T>(name: string | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new NotificationsException(
          NotificationsErrorCode.NameTaken,
          `a notification target named ${JSON.stringify(name)} exists already`,
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
  ): Promise<StoredTarget> {
    const target = await this.targets.find(tx, tenantId, id, lock);
    if (!target) {
      throw new NotificationsException(
        NotificationsErrorCode.TargetNotFound,
        `notification target ${id} not found`,
      );
    }
    return target;
  }
}

function pickSecrets(target: StoredTarget, kept: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    SECRET_CONFIG_FIELDS[target.kind]
      .filter((field) => kept[field] !== undefined)
      .map((field) => [field, kept[field]]),
  );
}

/** D42: a digest of the credentials, so changes show; its name makes the recorder redact it. */
function auditView(target: StoredTarget, secrets: Record<string, string>): object {
  const digest = createHash('sha256').update(JSON.stringify(secrets)).digest('hex');
  return { ...toResponse(target), credentials: digest };
}

/** W15: a credential that is set reads as `********`; its value never leaves the relay. */
export function toResponse(target: StoredTarget): NotificationTargetResponse {
  return {
    id: target.id,
    name: target.name,
    kind: target.kind,
    events: target.events,
    ...(target.minSeverity ? { minSeverity: target.minSeverity } : {}),
    enabled: target.isEnabled,
    config: {
      ...target.config,
      ...Object.fromEntries(target.secretFields.map((field) => [field, MASK])),
    },
    createdAt: target.createdAt,
    updatedAt: target.updatedAt,
  };
}
