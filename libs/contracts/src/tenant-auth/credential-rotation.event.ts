import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

export const ROTATED_CREDENTIAL_KINDS = [
  'AGENT_CLIENT_SECRET',
  'SERVICE_ACCOUNT_CLIENT_SECRET',
  /** The relay's signing secret of an agent's webhook (D19). */
  'AGENT_WEBHOOK_SECRET',
] as const;

/** A client secret or an agent's webhook signing secret replaced (D19); never the secret itself. */
export class CredentialRotationData extends AuditableEventData {
  @IsIn(ROTATED_CREDENTIAL_KINDS)
  credential: (typeof ROTATED_CREDENTIAL_KINDS)[number];

  /** The agent or service account whose secret changed. */
  @IsUUID()
  subjectId: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  subjectName?: string;
}
