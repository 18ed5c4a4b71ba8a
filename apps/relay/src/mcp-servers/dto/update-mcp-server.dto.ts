import { PatchType } from '@agp/http';

import { CreateMcpServerDto } from './create-mcp-server.dto';

/**
 * A partial update: absent keeps a field; `null` clears the optional ones only (D12). A new
 * credential replaces the old one and `null` removes it; a `null` credentialHeader goes back to
 * `Authorization` (D37).
 */
export class UpdateMcpServerDto extends PatchType(CreateMcpServerDto) {}
