import { HopDecision } from '../../decisions/decision.types';
import { ImposedAction } from './hop.types';

/**
 * traffic.md T86: the policies' decision raised to at least `imposed` (BLOCK over a hold, a hold
 * over delivery), its reason added; a decision already as strict stays as it is, reasons too.
 */
export function withImposed(decision: HopDecision, imposed: ImposedAction): HopDecision {
  if (decision.isBlocked || decision.action === imposed.action) {
    return decision;
  }
  const reasons = [...decision.reasons, imposed.reason];
  return imposed.action === 'BLOCK'
    ? { ...decision, action: 'BLOCK', isBlocked: true, reasons }
    : { ...decision, action: 'HUMAN_REVIEW_REQUIRED', reasons };
}
