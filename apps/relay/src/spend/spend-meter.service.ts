import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import {
  BudgetRef,
  BudgetReservation,
  BudgetVerdict,
  budgetRef,
  exceededReason,
} from './budget-verdict';
import { BudgetsRepository, SpendSubject } from './budgets.repository';
import { CountedTokens, costOf } from './llm-cost';
import { PaymentSpend, SpendLedgerRepository } from './spend-ledger.repository';
import { SpendDirectory } from './spend-directory';
import { Budget, ModelPrice } from './spend.types';
import { formatPico, parseDecimal, picoOfNumeric } from './usd';

/** SP8: a replica that dies mid-call gives its reservations back after this long. */
export const RESERVATION_TTL_SECONDS = 15 * 60;
const SCALE = 10n ** 12n;

/** A charge in both units a budget may count: pico-dollars and tokens. */
export interface Charge {
  usdPico: bigint;
  tokens: bigint;
}

/**
 * D60, SP8–SP11: budgets checked and reserved before the upstream is called, settled with the
 * actual cost after, all in PostgreSQL so every replica sees the same windows (as D36's counters).
 */
@Injectable()
export class SpendMeter {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly budgets: BudgetsRepository,
    private readonly ledger: SpendLedgerRepository,
    private readonly directory: SpendDirectory,
  ) {}

  /** SP7: an LLM call, its estimate priced at the first of `models` with a price. */
  reserveLlm(
    subject: SpendSubject,
    models: string[],
    estimate: CountedTokens,
  ): Promise<BudgetVerdict> {
    return this.reserve(subject, async (tx) => {
      const price = await this.directory.firstPriced(tx, subject.tenantId, models);
      const tokens = BigInt((estimate.promptTokens ?? 0) + (estimate.completionTokens ?? 0));
      return { usdPico: price ? costOf(price, estimate) : 0n, tokens };
    });
  }

  /**
   * x402's seam (D48): a payment of `amountUsd` (a decimal string) checked against the TENANT,
   * AGENT and SUBSCRIPTION budgets (and LLM_GATEWAY on the LLM path, SP18) and reserved; settle it
   * with `recordPayment`, or `release` it.
   */
  checkPayment(subject: SpendSubject, amountUsd: string): Promise<BudgetVerdict> {
    const usdPico = parseDecimal(amountUsd);
    if (usdPico === undefined) {
      throw new Error(`not a USD amount: ${amountUsd}`);
    }
    return this.reserve(subject, () => Promise.resolve({ usdPico, tokens: 0n }), true);
  }

  /**
   * A settled payment in the ledger (SP12), its reservation given back, in `tx` when given;
   * answers the budgets whose soft limit it reached first (SP11: `details.budgetAlerts` of its
   * X402_PAYMENT_SUCCESS).
   */
  async recordPayment(
    spend: PaymentSpend,
    reservation?: BudgetReservation,
    tx?: Tx,
  ): Promise<BudgetRef[]> {
    const usdPico = parseDecimal(spend.payment.amountUsd);
    if (usdPico === undefined) {
      throw new Error(`not a USD amount: ${spend.payment.amountUsd}`);
    }
    const work = async (t: Tx): Promise<BudgetRef[]> => {
      const alerts = await this.softLimitsReached(t, reservation, { usdPico, tokens: 0n });
      if (reservation) {
        await this.ledger.release(t, reservation.tenantId, reservation.id);
      }
      // SP20: the line last: its trigger's hour rows stay locked until commit, so the least.
      await this.ledger.insertPayment(t, spend);
      return alerts;
    };
    return tx ? work(tx) : this.database.inTenant(spend.subject.tenantId, work);
  }

  /** A call that never reached its upstream gives its reservation back. */
  async release(reservation: BudgetReservation | undefined): Promise<void> {
    if (reservation) {
      await this.database.inTenant(reservation.tenantId, (tx) =>
        this.ledger.release(tx, reservation.tenantId, reservation.id),
      );
    }
  }

  /** SP4: the price of a call, the first of `models` that has one. */
  priceOf(tx: Tx, tenantId: string, models: string[]): Promise<ModelPrice | undefined> {
    return this.directory.firstPriced(tx, tenantId, models);
  }

  /**
   * SP11: the soft limits a settled call reached for the first time in their window, with `actual`
   * in place of what it had reserved.
   */
  async softLimitsReached(
    tx: Tx,
    reservation: BudgetReservation | undefined,
    actual: Charge,
  ): Promise<BudgetRef[]> {
    const reached: BudgetRef[] = [];
    const soft = (reservation?.budgets ?? []).filter((b) => b.softLimit !== null);
    const usedOf = await this.budgets.usedOf(tx, soft);
    for (const budget of soft) {
      const used =
        picoOfNumeric(usedOf.get(budget.id) ?? '0') -
        inUnit(budget, reservation!) +
        inUnit(budget, actual);
      if (
        used >= picoOfNumeric(budget.softLimit) &&
        (await this.budgets.markSoftAlerted(tx, budget))
      ) {
        reached.push(budgetRef(budget, used));
      }
    }
    return reached;
  }

  /**
   * In a transaction of its own, within which the subject's budgets are locked (SP8); none for a
   * tenant without a budget (R40), whose call reserves nothing either way.
   */
  private async reserve(
    subject: SpendSubject,
    estimate: (tx: Tx) => Promise<Charge>,
    isExact = false,
  ): Promise<BudgetVerdict> {
    if (!(await this.directory.mayCount(subject))) {
      return { kind: 'ADMITTED', warnings: [] };
    }
    return this.database.inTenant(subject.tenantId, async (tx) => {
      const budgets = await this.budgets.applicable(tx, subject, true);
      if (budgets.length === 0) {
        return { kind: 'ADMITTED', warnings: [] };
      }
      const charge = await estimate(tx);
      const warnings: BudgetRef[] = [];
      // SP19: every budget's window in one statement, of hour sums rather than ledger lines.
      const usedOf = await this.budgets.usedOf(tx, budgets);
      for (const budget of budgets) {
        const used = picoOfNumeric(usedOf.get(budget.id) ?? '0');
        // SP9: a call starts while its window is under the hard limit; the one that crosses it
        // is the last, so the overshoot is at most one call. SP17: a payment's amount is known,
        // so one that would cross the limit is refused (no overshoot).
        const after = isExact ? used + inUnit(budget, charge) : used;
        const hard = budget.hardLimit === null ? undefined : picoOfNumeric(budget.hardLimit);
        if (hard !== undefined && (isExact ? after > hard : after >= hard)) {
          const ref = budgetRef(budget, used);
          return { kind: 'EXCEEDED', budget: ref, reason: exceededReason(ref) };
        }
        if (
          budget.softLimit !== null &&
          used + inUnit(budget, charge) >= picoOfNumeric(budget.softLimit)
        ) {
          warnings.push(budgetRef(budget, used + inUnit(budget, charge)));
        }
      }
      const id = randomUUID();
      await this.ledger.reserve(
        tx,
        id,
        subject,
        { amountUsd: formatPico(charge.usdPico), tokens: String(charge.tokens) },
        RESERVATION_TTL_SECONDS,
      );
      return {
        kind: 'ADMITTED',
        reservation: { id, tenantId: subject.tenantId, ...charge, budgets },
        warnings,
      };
    });
  }
}

/** A charge in a budget's unit, scaled like pico-dollars. */
function inUnit(budget: Budget, charge: Charge): bigint {
  return budget.unit === 'USD' ? charge.usdPico : charge.tokens * SCALE;
}
