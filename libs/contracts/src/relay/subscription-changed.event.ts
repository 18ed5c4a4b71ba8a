import { IsArray, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

export const SUBSCRIPTION_KINDS = [
  'AGENT_TO_AGENT',
  'AGENT_TO_MCP_SERVER',
  'AGENT_TO_LLM_GATEWAY',
  'USER_TO_AGENT',
  'CHANNEL_TO_AGENT',
  // D43: a person's own MCP client calling an MCP server, with a tool grant like an agent's.
  'USER_TO_MCP_SERVER',
] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];

export const SUBSCRIPTION_CHANGES = ['CREATED', 'UPDATED', 'DELETED'] as const;
export type SubscriptionChange = (typeof SUBSCRIPTION_CHANGES)[number];

/** D32: who may talk to whom changed. */
export class SubscriptionChangedData extends AuditableEventData {
  @IsIn(SUBSCRIPTION_CHANGES)
  change: SubscriptionChange;

  @IsUUID()
  subscriptionId: string;

  @IsIn(SUBSCRIPTION_KINDS)
  kind: SubscriptionKind;

  @IsUUID()
  sourceId: string;

  @IsUUID()
  targetId: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  tools?: string[] | null;
}
