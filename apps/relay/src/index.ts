export * from './config/relay.env';
export * from './config/secrets-key';
export * from './database/data-source';
export * from './database/tokens';
export * from './relay.module';
export * from './mcp-servers/credential-cipher';
// D48: what x402's payments call (checkPayment, recordPayment) and the ledger they write.
export { SpendMeter } from './spend/spend-meter.service';
export type { BudgetVerdict, BudgetReservation, BudgetRef } from './spend/budget-verdict';
export type { PaymentSpend } from './spend/spend-ledger.repository';
// The response shapes the console's typed API client is checked against (issue 16).
export type { HitlRequestResponse, HitlStatus } from './hitl/hitl.types';
export type {
  PolicyBindingResponse,
  PolicyGroupResponse,
  PolicyVersionResponse,
} from './policies/dto/policy-responses';
export type { HopDecision } from './decisions/decision.types';
export type { AgentResponse } from './agents/dto/agent-response';
export type { CatalogEntry } from './registry/catalog.repository';
export type { Subscription } from './subscriptions/subscription.types';
export type { KillSwitch, KillSwitchScope } from './kill-switches/kill-switch.types';
export type {
  EvaluationPackResponse,
  EvaluationResponse,
  RunResponse,
} from './evaluation-packs/dto/pack-responses';
export * from './openapi/response-schemas';
export { LicenceKeys } from './licences/licence-keys.service';
export { Licences } from './licences/licences.service';
