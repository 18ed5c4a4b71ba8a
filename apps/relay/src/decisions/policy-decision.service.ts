import { Inject, Injectable } from '@nestjs/common';

import { applyMasks } from './apply-masks';
import { bindingApplies } from './binding-matcher';
import { Combined, combineDecisions } from './combine-decisions';
import { candidateOutcome } from './candidate-placement';
import {
  CachedBinding,
  DecisionCache,
  ShadowBinding,
  TenantPolicySnapshot,
} from './decision-cache';
import { DECISION_OPTIONS, DecisionOptions } from './decision-options';
import { BindingResult, DecisionInput, HopDecision } from './decision.types';
import { normalizeDecision } from './normalize-decision';
import { HopPatternSets, withPatternDetections } from './pattern-sets';
import { PolicyEngine, PreparedInput } from './policy-engine';

// Issue 6 §4: bindings per D23, versions compiled once, combined per D22; in-process and HTTP.
/** What a SHADOW binding would have made of a hop (D49), beside the enforced decision. */
export interface ShadowJudgement {
  binding: CachedBinding;
  outcome: Combined;
}

/** What judging a decision's shadows later needs: the input it was decided on, and its shadows. */
interface ShadowContext {
  document: DecisionInput;
  shadows: ShadowBinding[];
  failOpen: boolean;
  patternSets: HopPatternSets;
}

@Injectable()
export class PolicyDecisionService {
  /** G7: kept only for decisions some SHADOW binding matched; gone with the decision. */
  private readonly shadowContexts = new WeakMap<HopDecision, ShadowContext>();

  constructor(
    private readonly cache: DecisionCache,
    private readonly engine: PolicyEngine,
    @Inject(DECISION_OPTIONS) private readonly options: DecisionOptions,
  ) {}

  async decide(input: DecisionInput): Promise<HopDecision> {
    let snapshot: TenantPolicySnapshot;
    try {
      snapshot = await this.cache.snapshot(input.tenant.id);
    } catch (error) {
      return unavailable(input, error);
    }
    const now = Date.parse(input.time);
    const at = Number.isNaN(now) ? Date.now() : now;
    const applicable = snapshot.bindings.filter((b) =>
      bindingApplies(b, input.source, input.sink, at),
    );
    const document =
      snapshot.tenantSlug && !input.tenant.slug
        ? { ...input, tenant: { id: input.tenant.id, slug: snapshot.tenantSlug } }
        : input;
    const patternSets = snapshot.patternSets.forHop(input.direction);
    const decision = this.decideWith(document, applicable, snapshot.failOpen, patternSets);
    if (snapshot.shadows.length > 0) {
      const shadows = snapshot.shadows.filter((s) =>
        bindingApplies(s.binding, input.source, input.sink, at),
      );
      if (shadows.length > 0) {
        const failOpen = snapshot.failOpen;
        this.shadowContexts.set(decision, { document, shadows, failOpen, patternSets });
      }
    }
    return decision;
  }

  /** Whether a SHADOW binding matched this decision's hop (nothing to judge otherwise). */
  isShadowed(decision: HopDecision): boolean {
    return this.shadowContexts.has(decision);
  }

  /** D49, G7: called after the decision, off the hop's path. */
  judgeShadows(decision: HopDecision): ShadowJudgement[] {
    const context = this.shadowContexts.get(decision);
    if (!context) {
      return [];
    }
    this.shadowContexts.delete(decision);
    const at = new Date(Date.parse(context.document.time) || Date.now());
    const prepared = this.engine.prepareInput(context.document, context.patternSets);
    return context.shadows.map(({ binding, replaces }) => ({
      binding,
      outcome: candidateOutcome(
        decision.bindings,
        replaces,
        this.evaluate(binding, prepared, at),
        context.failOpen,
      ),
    }));
  }

  /** One binding's result on an input (a replay's candidate, governance.md G10). */
  evaluateOne(
    binding: CachedBinding,
    input: DecisionInput,
    patternSets?: HopPatternSets,
  ): BindingResult {
    const at = new Date(Date.parse(input.time) || Date.now());
    return this.evaluate(binding, this.engine.prepareInput(input, patternSets), at);
  }

  /** R20: a version's test run passes its one version, as if bound tenant-wide. */
  decideWith(
    input: DecisionInput,
    bindings: CachedBinding[],
    failOpen: boolean,
    patternSets?: HopPatternSets,
  ): HopDecision {
    const now = Date.parse(input.time);
    const at = Number.isNaN(now) ? Date.now() : now;
    const prepared = bindings.length > 0 ? this.engine.prepareInput(input, patternSets) : undefined;
    const results = bindings.map((binding) => this.evaluate(binding, prepared!, new Date(at)));
    const combined = combineDecisions(results, failOpen);
    const masked =
      combined.mask.length > 0
        ? applyMasks(input.message.json, combined.mask, input.message.text)
        : { json: input.message.json, text: input.message.text, maskedFields: [] };
    return {
      action: combined.action,
      isBlocked: combined.isBlocked,
      failOpen,
      reasons: combined.reasons,
      mask: combined.mask,
      detections: patternSets
        ? withPatternDetections(combined.detections, patternSets.detections())
        : combined.detections,
      maskedFields: masked.maskedFields,
      bindings: combined.ordered,
      maskedMessage: { text: masked.text, json: masked.json },
    };
  }

  private evaluate(binding: CachedBinding, input: PreparedInput, now: Date): BindingResult {
    const base = {
      bindingId: binding.bindingId,
      bindingLevel: binding.bindingLevel,
      priority: binding.priority,
      groupId: binding.groupId,
      groupName: binding.groupName,
      groupVersion: binding.version,
    };
    const failed = (error: string): BindingResult => ({
      ...base,
      action: 'ERROR',
      reasons: [],
      mask: [],
      detections: [],
      error,
    });
    if ('error' in binding.policy) {
      return failed(binding.policy.error);
    }
    const raw = binding.policy.evaluate(input, {
      timeoutMs: this.options.evaluationTimeoutMs,
      now,
    });
    if (!raw.ok) {
      return failed(raw.error);
    }
    const normalized = normalizeDecision(raw.value);
    return normalized.ok ? { ...base, ...normalized.decision } : failed(normalized.error);
  }
}

/** D22: policies that cannot load mean not even the fail mode is known: fail closed. */
function unavailable(input: DecisionInput, error: unknown): HopDecision {
  const why = error instanceof Error ? error.message : String(error);
  return {
    action: 'ERROR',
    isBlocked: true,
    failOpen: false,
    reasons: [`policies could not be loaded: ${why}`],
    mask: [],
    detections: [],
    maskedFields: [],
    bindings: [],
    maskedMessage: { text: input.message.text, json: input.message.json },
  };
}
