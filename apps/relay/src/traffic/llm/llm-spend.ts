import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../../database/tokens';
import { BudgetReservation, BudgetVerdict } from '../../spend/budget-verdict';
import { SpendSubject } from '../../spend/budgets.repository';
import { costOf, estimatedTokens } from '../../spend/llm-cost';
import { SpendLedgerRepository } from '../../spend/spend-ledger.repository';
import { SpendMeter } from '../../spend/spend-meter.service';
import { formatPico } from '../../spend/usd';
import { LlmCallRecord, gatewayCallEvent } from '../pipeline/gateway-call-events';
import { ChatRequest } from './chat-messages';
import { LlmCall, partiesOf } from './llm-call';

/** D60 on the LLM path: budgets before a provider is called, the cost in the trail after. */
@Injectable()
export class LlmSpend {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly meter: SpendMeter,
    private readonly ledger: SpendLedgerRepository,
  ) {}

  /** SP7: reserved at what the request may cost, priced as the provider's model. */
  reserve(call: LlmCall, request: ChatRequest): Promise<BudgetVerdict> {
    return this.meter.reserveLlm(
      subjectOf(call),
      distinct([upstreamModelOf(call, request.model), request.model]),
      estimatedTokens(request),
    );
  }

  release(reservation: BudgetReservation | undefined): Promise<void> {
    return this.meter.release(reservation);
  }

  /**
   * SP5, SP12: LLM_GATEWAY_CALL with its cost, the ledger's line and the reservation settled in one
   * transaction, so the trail and the ledger never disagree, whatever stops when.
   */
  async settle(
    call: LlmCall,
    reservation: BudgetReservation | undefined,
    record: LlmCallRecord,
  ): Promise<void> {
    const usage = record.usage;
    await this.database.inTenant(call.tenantId, async (tx) => {
      const models = distinct([
        record.upstreamModel,
        upstreamModelOf(call, record.model),
        record.model,
      ]);
      const price = usage ? await this.meter.priceOf(tx, call.tenantId, models) : undefined;
      const amount = usage && price ? costOf(price, usage) : undefined;
      const tokens = usage
        ? (usage.totalTokens ?? (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0))
        : 0;
      const budgetAlerts = await this.meter.softLimitsReached(tx, reservation, {
        usdPico: amount ?? 0n,
        tokens: BigInt(tokens),
      });
      const { data } = gatewayCallEvent(
        partiesOf(call),
        record,
        usage
          ? {
              amountUsd: amount === undefined ? null : formatPico(amount),
              ...(price ? { pricedModel: price.model } : {}),
              budgetAlerts,
            }
          : undefined,
      );
      const event = await this.outbox.add(
        tx,
        'LLM_GATEWAY_CALL',
        { tenantId: call.tenantId, correlationId: call.correlationId },
        data,
      );
      if (reservation) {
        await this.ledger.release(tx, reservation.tenantId, reservation.id);
      }
      // SP20: the line last, just before commit: its trigger's hour rows stay locked the least.
      if (usage) {
        await this.ledger.insertLlm(tx, {
          id: randomUUID(),
          subject: subjectOf(call),
          llmProviderId: record.provider.id,
          model: price?.model ?? record.upstreamModel,
          amountUsd: amount === undefined ? null : formatPico(amount),
          promptTokens: usage.promptTokens ?? 0,
          completionTokens: usage.completionTokens ?? 0,
          cachedTokens: usage.cachedTokens ?? 0,
          totalTokens: tokens,
          correlationId: call.correlationId,
          eventId: event.id,
          details: { streamed: record.isStreamed, outcome: record.outcome },
        });
      }
    });
  }
}

function subjectOf(call: LlmCall): SpendSubject {
  return {
    tenantId: call.tenantId,
    agentId: call.agentId,
    llmGatewayId: call.gatewayId,
    ...(call.route.subscription ? { subscriptionId: call.route.subscription.id } : {}),
  };
}

function upstreamModelOf(call: LlmCall, model: string): string {
  return call.route.gateway.modelMap[model] ?? model;
}

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}
