import { EXECUTION_MODES, ExecutionMode } from '@agp/contracts';
import { IsIn, IsOptional } from 'class-validator';

export class CreateRunDto {
  /** Default SIMULATED (D15). */
  @IsOptional()
  @IsIn(EXECUTION_MODES)
  executionMode?: ExecutionMode;
}
