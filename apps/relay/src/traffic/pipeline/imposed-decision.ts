import { HopDecision } from '../../decisions/decision.types';
import { ImposedAction } from './hop.types';

/** T86: raised to at least `imposed`; a decision already as strict stays, reasons too. */
export function withImposed(decision: HopDecision, imposed: ImposedAction): HopDecision {
  if (decision.isBlocked || decision.action === imposed.action) {
    return decision;
  }
  const reasons = [...decision.reasons, imposed.reason];
  return imposed.action === 'BLOCK'
    ? { ...decision, action: 'BLOCK', isBlocked: true, reasons }
    : { ...decision, action: 'HUMAN_REVIEW_REQUIRED', reasons };
}
