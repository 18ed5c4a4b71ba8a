import { PageQueryDto } from '@agp/http';
import { IsISO8601, IsOptional } from 'class-validator';

/** D55: the window of a shadow report or of a replay's result, and the page of changed hops. */
export class DecisionDiffQueryDto extends PageQueryDto {
  /** Default: since the binding began (a shadow report) or the replay's own window. */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** Default: now (a shadow report) or the replay's own window. */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}
