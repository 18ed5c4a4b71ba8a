import { IsString, Length } from 'class-validator';

export class CreateAttestationDto {
  /** What is attested ("controls reviewed, data-processing agreement in place"). */
  @IsString()
  @Length(1, 2_000)
  statement: string;
}
