import { SUBSCRIPTION_KINDS, SubscriptionKind } from '@agp/contracts';
import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional, IsUUID } from 'class-validator';

export class ListSubscriptionsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(SUBSCRIPTION_KINDS)
  kind?: SubscriptionKind;

  @IsOptional()
  @IsUUID()
  sourceId?: string;

  @IsOptional()
  @IsUUID()
  targetId?: string;
}
