import { BINDING_LEVELS, BindingLevel } from '@agp/contracts';
import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional, IsUUID } from 'class-validator';

export class ListPolicyBindingsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsUUID()
  groupId?: string;

  @IsOptional()
  @IsIn(BINDING_LEVELS)
  bindingLevel?: BindingLevel;

  /** Bindings that name this agent in any of their agent references. */
  @IsOptional()
  @IsUUID()
  agentId?: string;
}
