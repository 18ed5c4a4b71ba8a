import { Type } from 'class-transformer';
import { AGENT_VISIBILITIES, AgentVisibility } from '@agp/contracts';
import { isPresent } from '@agp/http';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import {
  MAX_TIMEOUT_MS,
  MAX_VIRTUAL_MEMBERS,
  MCP_TRANSPORTS,
  MIN_TIMEOUT_MS,
  McpTransport,
  TRANSPORT_MESSAGE,
} from '../mcp-servers.constants';
import {
  IsCredentialHeader,
  IsDescription,
  IsHeaderValue,
  IsTimeoutMs,
  IsUpstreamUrl,
} from '../../common/upstream-fields';
import { VirtualMemberDto } from './virtual-member.dto';

const isVirtual = (dto: CreateMcpServerDto): boolean => dto.transport === 'VIRTUAL';

export class CreateMcpServerDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsDescription()
  description?: string;

  /** D37: also checked against the egress rules (common/egress-policy.ts) by the service. */
  @ValidateIf((dto: CreateMcpServerDto) => !isVirtual(dto) || dto.url !== undefined)
  @IsUpstreamUrl()
  url?: string;

  @IsIn(MCP_TRANSPORTS, { message: TRANSPORT_MESSAGE })
  transport: McpTransport;

  /** D52: what a VIRTUAL server composes (and only a VIRTUAL one has). */
  @ValidateIf((dto: CreateMcpServerDto) => isVirtual(dto) || dto.members !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_VIRTUAL_MEMBERS)
  @ValidateNested({ each: true })
  @Type(() => VirtualMemberDto)
  members?: VirtualMemberDto[];

  /** The MCP protocol revision the server speaks (`2025-06-18`). */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  protocolVersion?: string;

  /** D37: write-only; stored sealed (AES-256-GCM), answered as `"********"`. */
  @IsOptional()
  @IsHeaderValue('credential')
  credential?: string;

  /** The header the credential travels in; `Authorization` (as `Bearer <credential>`) by default. */
  @IsOptional()
  @IsCredentialHeader()
  credentialHeader?: string;

  /** DS7: who may discover it; PRIVATE (its subscribers) unless said. Never null. */
  @ValidateIf(isPresent)
  @IsIn(AGENT_VISIBILITIES)
  visibility?: AgentVisibility;

  /** How long the relay waits for the server's answer (D37, T6); null is not a timeout. */
  @IsTimeoutMs(MIN_TIMEOUT_MS, MAX_TIMEOUT_MS)
  timeoutMs?: number;
}
