import { HopDecision } from '../../decisions/decision.types';
import { ImposedAction } from './hop.types';

/** T86: raised to at least `imposed`; a decision already as strict stays, reasons too. */
export function withImposed(decision: HopDecision, imposed: ImposedAction): HopDecision {
  if (decision.isBlocked) {
    return decision;
  }
  const reasons = [...decision.reasons, imposed.reason];
  if (imposed.action === 'WARN') {
    // SP10: a LOG becomes a WARN; a stricter decision stays, the warning among its reasons.
    return { ...decision, action: decision.action === 'LOG' ? 'WARN' : decision.action, reasons };
  }
  if (decision.action === imposed.action) {
    return decision;
  }
  return imposed.action === 'BLOCK'
    ? { ...decision, action: 'BLOCK', isBlocked: true, reasons }
    : { ...decision, action: 'HUMAN_REVIEW_REQUIRED', reasons };
}
