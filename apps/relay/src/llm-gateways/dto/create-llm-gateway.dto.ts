import { IsOptional, IsString, IsUrl, Length, MaxLength } from 'class-validator';

export class CreateLlmGatewayDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  /** The upstream provider (`openai`, `anthropic`, `azure-openai` …). */
  @IsString()
  @Length(1, 100)
  provider: string;

  /** The OpenAI-compatible base address the relay forwards to (D20). */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  baseUrl: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  model?: string;
}
