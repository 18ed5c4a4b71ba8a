import { Inject, Injectable } from '@nestjs/common';
import { REDACTED, changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { RotatedWebhookSecret } from './dto/rotated-webhook-secret.dto';
import { newWebhookSecret } from './webhook-signature';
import { WebhookSettings, WebhookSettingsRepository } from './webhook-settings.repository';
import { WebhooksErrorCode, WebhooksException } from './webhooks.exception';
import { SECRET_OVERLAP_MS } from './webhooks.options';

/** D19, D37: answered once, sealed; a rotation keeps the old secret signing for 24 hours. */
@Injectable()
export class WebhookSettingsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    private readonly settings: WebhookSettingsRepository,
    private readonly cipher: CredentialCipher,
  ) {}

  /** D37 for a webhook URL: a 400 naming the field before anything changes. */
  checkUrl(url: string | null | undefined): void {
    const refusal = typeof url === 'string' ? checkEgressUrl(url, this.egress) : null;
    if (refusal) {
      throw new WebhooksException(WebhooksErrorCode.InvalidUrl, 'invalid request: webhookUrl', [
        { field: 'webhookUrl', message: `webhookUrl is not allowed (D37): ${refusal}` },
      ]);
    }
  }

  /** In the agent update's transaction; returns a new secret, the only time it is answered. */
  async setUrl(
    tx: Tx,
    tenantId: string,
    agentId: string,
    url: string | null,
  ): Promise<string | undefined> {
    const current = await this.settings.findForUpdate(tx, tenantId, agentId);
    if (url === null) {
      await this.settings.clear(tx, tenantId, agentId);
      return undefined;
    }
    const secret = current?.secretCiphertext ? undefined : newWebhookSecret();
    await this.settings.setUrl(
      tx,
      tenantId,
      agentId,
      url,
      secret ? this.cipher.encrypt(secret) : undefined,
    );
    return secret;
  }

  async rotate(ctx: RequestContext, agentId: string): Promise<RotatedWebhookSecret> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const agent = mustHaveWebhook(
        await this.settings.findForUpdate(tx, ctx.tenantId, agentId),
        agentId,
      );
      const secret = newWebhookSecret();
      const overlapEndsAt = new Date(Date.now() + SECRET_OVERLAP_MS);
      await this.settings.rotate(
        tx,
        ctx.tenantId,
        agentId,
        this.cipher.encrypt(secret),
        overlapEndsAt,
      );
      await this.outbox.add(tx, 'CREDENTIAL_ROTATION', eventContext(ctx), {
        actor: actorOf(ctx),
        sink: { type: 'AGENT', id: agentId, label: agent.name },
        summary: `webhook signing secret of agent ${agent.name} rotated; the previous one signs until ${overlapEndsAt.toISOString()}`,
        credential: 'AGENT_WEBHOOK_SECRET',
        subjectId: agentId,
        subjectName: agent.name,
        // D42: the secret is listed as changed, never shown.
        details: {
          ...changedFields({
            target: { kind: 'AGENT', id: agentId, name: agent.name },
            before: { webhookSecret: REDACTED },
            after: { webhookSecret: REDACTED, previousSecretExpiresAt: overlapEndsAt },
            changed: ['webhookSecret'],
          }),
        },
      });
      return { webhookSecret: secret, previousSecretExpiresAt: overlapEndsAt.toISOString() };
    });
  }
}

function mustHaveWebhook(agent: WebhookSettings | undefined, agentId: string): WebhookSettings {
  if (!agent || agent.status === 'DELETED') {
    throw new WebhooksException(WebhooksErrorCode.AgentNotFound, `agent ${agentId} not found`);
  }
  if (!agent.url || !agent.secretCiphertext) {
    throw new WebhooksException(
      WebhooksErrorCode.NoWebhook,
      `agent ${agentId} has no webhook: set its webhookUrl first`,
    );
  }
  return agent;
}
