import { AGENT_VISIBILITIES, AgentVisibility } from '@agp/contracts';
import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

export class ListAgentsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @IsIn(AGENT_VISIBILITIES)
  visibility?: AgentVisibility;
}
