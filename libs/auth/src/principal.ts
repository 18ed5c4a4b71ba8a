import { CallerKind } from '@agp/contracts';

/** Who is calling, as a verified token says (D9). */
export interface Principal {
  kind: CallerKind;
  subject: string;
  tenantId: string;
  permissions: ReadonlySet<string>;
  scopes: readonly string[];
  /** A person's display name or e-mail, an agent's name: for audit labels (D14). */
  label: string;
  tokenId: string;
  expiresAt: number;
  /** `aud`: a person's MCP token names the one MCP server beside the relay (D43, identity.md I22). */
  audiences?: readonly string[];
}
