import { randomUUID, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { RELAY_DATABASE } from '../../../database/tokens';
import { HeldHopDelivery, HitlDeliveries } from '../../../hitl/hitl-deliveries';
import { HitlHolds } from '../../../hitl/hitl-holds.service';
import { StoredHitlRequest } from '../../../hitl/hitl.repository';
import { CredentialCipher } from '../../../mcp-servers/credential-cipher';
import { WebhookDeliveriesRepository } from '../../../webhooks/webhook-deliveries.repository';
import { A2A_PUSH_EVENT_TYPE } from '../../../webhooks/webhook-delivery.types';
import { JsonRpcMessage } from '../../mcp/json-rpc';
import { resendDigestOf } from '../../mcp/mcp-messages';
import { REFUSALS } from '../../pipeline/refusal-codes';
import { A2aHops } from '../a2a-hops';
import { A2aRelayService } from '../a2a-relay.service';
import { endsTask, taskFacts } from '../a2a-messages';
import { PUSH_HOP_METHOD, callerAuthHeaders } from './push-configs';
import { PushGovernance, sha256 } from './push-governance';
import { HeldPushesRepository } from './held-pushes.repository';
import { PushConfigsRepository, StoredPushConfig } from './push-configs.repository';

export interface ReceivedPush {
  callbackId: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  correlationId: string;
}

/** T41, D41: anything else is a 403 `blocked`. */
const PUSH_REFUSALS: ReadonlyMap<number, [number, string]> = new Map([
  [REFUSALS.reviewPending.code, [409, 'held']],
  [REFUSALS.reviewRejected.code, [403, 'rejected']],
  [REFUSALS.policyError.code, [403, 'policy-error']],
  [REFUSALS.killSwitch.code, [403, 'kill-switch']],
  [REFUSALS.rateLimited.code, [429, 'rate-limited']],
]);

/** The content types an A2A push comes in: 1.0 `application/a2a+json`, 0.3 `application/json`. */
const PUSH_CONTENT_TYPES = new Set(['application/json', 'application/a2a+json']);

/**
 * Issue 30 § 4, T41, T43: a target's push passes what every A2A message passes and is judged as
 * a hop (D33), then delivered as a signed webhook (D19); a refused push is never delivered.
 */
@Injectable()
export class PushReceiver implements OnModuleInit, HeldHopDelivery {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly configs: PushConfigsRepository,
    private readonly governance: PushGovernance,
    private readonly relay: A2aRelayService,
    private readonly hops: A2aHops,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly cipher: CredentialCipher,
    private readonly held: HeldPushesRepository,
    private readonly hitl: HitlHolds,
    private readonly heldDeliveries: HitlDeliveries,
  ) {}

  async receive(push: ReceivedPush): Promise<{ deliveryId: string }> {
    const config = await this.database.asSystem((tx) =>
      this.configs.findForCallback(tx, push.callbackId),
    );
    if (!config || !isTokenOf(config, tokenOf(push.headers))) {
      // One answer for both: a callback id alone says nothing about whether it exists.
      throw HttpProblem.unauthorized('no push callback with this id and token');
    }
    const contentType = contentTypeOf(push.headers);
    if (!PUSH_CONTENT_TYPES.has(contentType) || !isRecord(push.body)) {
      throw HttpProblem.validation([{ field: 'body', message: 'must be a JSON object' }]);
    }
    const call = await this.relay.callFor(
      {
        tenantId: config.tenantId,
        agentId: config.callerId,
        correlationId: push.correlationId,
        headers: push.headers,
      },
      config.targetId,
    );
    // T41: a push is judged as the target's answer would be: the push is its result.
    const message: JsonRpcMessage = { jsonrpc: '2.0', id: null, result: push.body };
    const stopped = await this.relay.admit(call, message, 'RESPONSE', PUSH_HOP_METHOD);
    if (stopped) {
      throw stopped.kind === 'json'
        ? refusedPush(stopped.body, stopped.headers)
        : refusedPush(undefined);
    }
    const judged = await this.hops.judgePush(
      call,
      message,
      { method: PUSH_HOP_METHOD, resendDigest: resendDigestOf(message) },
      (tx, request) =>
        this.held.insert(tx, {
          hitlRequestId: request.id,
          tenantId: config.tenantId,
          pushConfigId: config.id,
          contentType,
        }),
    );
    await judged.audited;
    if (judged.kind === 'held') {
      return this.awaitApproval(call.hitl.waitSeconds, judged.request, call.signal);
    }
    if (judged.kind === 'refused') {
      throw refusedPush(judged.answer);
    }
    const delivered = judged.message.result;
    return this.database.inTenant(config.tenantId, (tx) =>
      this.enqueue(tx, config, contentType, delivered, call.correlationId, message),
    );
  }

  /** D34, T41: delivered by its approval on any replica; the target only waits to be told. */
  private async awaitApproval(
    seconds: number,
    request: StoredHitlRequest,
    signal?: AbortSignal,
  ): Promise<{ deliveryId: string }> {
    const status = await this.hitl.awaitStatus(request, seconds, signal);
    const named = `HITL request ${request.id}`;
    switch (status) {
      case 'APPROVED':
      case 'RELEASED': {
        const held = await this.database.inTenant(request.tenantId, (tx) =>
          this.held.find(tx, request.tenantId, request.id),
        );
        if (held?.deliveryId) {
          return { deliveryId: held.deliveryId };
        }
        throw new HttpProblem(
          403,
          'release-refused',
          `the push was approved (${named}) but could not be delivered`,
        );
      }
      case 'REJECTED':
        throw new HttpProblem(
          403,
          'rejected',
          `the push was not delivered: rejected by a reviewer (${named})`,
        );
      case 'EXPIRED':
        throw new HttpProblem(403, 'expired', `the push was not delivered: ${named} expired`);
      case 'PENDING':
      case 'TIMEOUT':
        throw new HttpProblem(
          409,
          'held',
          `the push is held for human review (${named}): it is delivered to the caller once approved`,
        );
    }
  }

  /** Delivers an approved held push, in the approval's transaction (`HitlDeliveries`). */
  async deliver(
    tx: Tx,
    request: StoredHitlRequest,
  ): Promise<{ deliveryId: string } | { refused: string }> {
    const held = await this.held.find(tx, request.tenantId, request.id);
    if (!held) {
      return { refused: 'no push is held under this request' };
    }
    const config = await this.configs.findById(tx, request.tenantId, held.pushConfigId);
    if (!config) {
      return { refused: 'the caller deleted the push notification configuration' };
    }
    const message = request.message as JsonRpcMessage;
    const { deliveryId } = await this.enqueue(
      tx,
      config,
      held.contentType,
      message.result,
      request.correlationId,
      message,
    );
    if (!(await this.held.delivered(tx, request.tenantId, request.id, deliveryId))) {
      throw new Error(`held push ${request.id} was already delivered`);
    }
    return { deliveryId };
  }

  onModuleInit(): void {
    this.heldDeliveries.register(PUSH_HOP_METHOD, this);
  }

  /** A webhook delivery (D19) of the judged push to the caller's URL, with the caller's credentials. */
  private async enqueue(
    tx: Tx,
    config: StoredPushConfig,
    contentType: string,
    delivered: unknown,
    correlationId: string,
    received: JsonRpcMessage,
  ): Promise<{ deliveryId: string }> {
    const headers = {
      'content-type': contentType,
      ...callerAuthHeaders(this.governance.credentialsOf(config)),
    };
    const deliveryId = randomUUID();
    const taskId = taskFacts(received).a2aTaskId;
    await this.deliveries.insert(
      tx,
      config.tenantId,
      { id: randomUUID(), type: A2A_PUSH_EVENT_TYPE, correlationId },
      [
        {
          id: deliveryId,
          agentId: config.callerId,
          payload: JSON.stringify(delivered),
          url: config.url,
          headersCiphertext: this.cipher.encrypt(JSON.stringify(headers)),
        },
      ],
    );
    if (taskId && !config.taskId) {
      await this.configs.learn(tx, config.tenantId, config.id, { taskId });
    }
    await this.configs.pushed(tx, config.tenantId, config.id, endsTask(received));
    return { deliveryId };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The token the target sends back: A2A's `X-A2A-Notification-Token`, or a bearer token. */
function tokenOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-a2a-notification-token'];
  if (typeof header === 'string' && header.length > 0) {
    return header;
  }
  const authorization = headers.authorization;
  const match = typeof authorization === 'string' ? /^Bearer (.+)$/i.exec(authorization) : null;
  return match?.[1];
}

function isTokenOf(config: StoredPushConfig, token: string | undefined): boolean {
  if (!token) {
    return false;
  }
  const given = Buffer.from(sha256(token), 'hex');
  const kept = Buffer.from(config.tokenSha256, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

function contentTypeOf(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** The problem the target gets for a refused push, with `Retry-After` when the answer had one. */
function refusedPush(answer: unknown, headers?: Record<string, string>): HttpProblem {
  const code = (answer as JsonRpcMessage | undefined)?.error?.code ?? 0;
  const [status, slug] = PUSH_REFUSALS.get(code) ?? [403, 'blocked'];
  return new HttpProblem(status, slug, reasonOf(answer), undefined, headers);
}

function reasonOf(answer: unknown): string {
  const error = (answer as JsonRpcMessage | undefined)?.error;
  const data = error?.data as { reasons?: unknown; decisionId?: unknown } | undefined;
  const reasons = Array.isArray(data?.reasons) ? data.reasons.join('; ') : undefined;
  const decision = typeof data?.decisionId === 'string' ? ` (decision ${data.decisionId})` : '';
  return `the push was not delivered: ${error?.message ?? 'refused'}${reasons ? `: ${reasons}` : ''}${decision}`;
}
