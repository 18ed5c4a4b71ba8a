import { IsString, Length } from 'class-validator';

export class ReportIncidentDto {
  @IsString()
  @Length(1, 20_000)
  report: string;
}
