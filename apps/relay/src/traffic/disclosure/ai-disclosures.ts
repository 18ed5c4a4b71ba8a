import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../../database/tokens';
import { DisclosureInput } from '../../decisions/decision.types';
import { Carried } from '../pipeline/disclosure-events';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop } from '../pipeline/hop.types';
import { DisclosureTerms, disclosureInputOf, syntheticMarkingOf } from './disclosure-terms';
import { DisclosuresRepository } from './disclosures.repository';

/** What one delivery to a person is to carry, decided before its hop is judged (T73). */
export interface DisclosurePlan {
  terms: DisclosureTerms;
  conversationKey: string;
  input: DisclosureInput;
}

export type { Carried };

/**
 * D45, traffic.md T71: whether a person was told is read from PostgreSQL, never a replica's
 * memory, and each disclosure made and each marked delivery is one audit event.
 */
@Injectable()
export class AiDisclosures {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: DisclosuresRepository,
    private readonly pipeline: HopPipeline,
  ) {}

  async plan(
    tenantId: string,
    terms: DisclosureTerms,
    conversationKey: string,
  ): Promise<DisclosurePlan> {
    const madeBefore =
      terms.mode === 'FIRST_MESSAGE' &&
      (await this.database.inTenant(tenantId, (tx) =>
        this.repository.isDisclosed(tx, tenantId, conversationKey),
      ));
    return { terms, conversationKey, input: disclosureInputOf(terms, madeBefore) };
  }

  /** What the delivery carries: the disclosure when planned, the marking when on. */
  carried(plan: DisclosurePlan, agent: { id: string; name?: string }): Carried {
    return {
      ...(plan.input.willBeMade ? { disclosure: plan.terms.text } : {}),
      ...(plan.terms.isMarking ? { marking: syntheticMarkingOf(agent) } : {}),
    };
  }

  /**
   * After the delivery: the conversation is told (the key the answer names, which may be new),
   * and each thing carried is recorded, durable before the caller hears of it (T1).
   */
  async delivered(
    hop: Hop,
    agentId: string,
    conversationKey: string,
    carried: Carried,
    form: string,
  ): Promise<void> {
    if (carried.disclosure === undefined && carried.marking === undefined) {
      return;
    }
    if (carried.disclosure !== undefined) {
      await this.database.inTenant(hop.tenantId, (tx) =>
        this.repository.markDisclosed(tx, hop.tenantId, conversationKey, agentId),
      );
    }
    await this.pipeline.recordDisclosures(hop, conversationKey, carried, form);
  }
}
