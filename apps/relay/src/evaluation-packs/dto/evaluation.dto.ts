import {
  ASSERTION_KINDS,
  AssertionKind,
  DIRECTIONS,
  EVALUATION_ENDPOINT_TYPES,
  EXPECTED_ACTIONS,
  EvaluationEndpointType,
  ExpectedAction,
  MessageDirection,
  PATTERN_MODES,
  PROTOCOLS,
  PatternMode,
  Protocol,
} from '@agp/contracts';
import { PatchType } from '@agp/http';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** An endpoint reference of the specification (D27 types). */
export class EndpointReferenceDto {
  @IsIn(EVALUATION_ENDPOINT_TYPES)
  type: EvaluationEndpointType;

  @IsUUID()
  id: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

export class ExpectedPatternDto {
  @IsOptional()
  @IsUUID()
  patternId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string;

  @IsString()
  @Length(1, 2_000)
  pattern: string;

  /** D27: tested against the message after masking. */
  @IsIn(PATTERN_MODES)
  mode: PatternMode;

  @IsOptional()
  @Matches(/^[imsu]*$/, { message: 'flags may only contain i, m, s and u' })
  flags?: string;
}

export class AssertionDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  checkId?: string;

  @IsIn(ASSERTION_KINDS)
  kind: AssertionKind;

  /** ACTION/POLICY_MATCHED: a group id or name; MASKED_FIELD: a path; DETECTION: a detection kind. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  subject?: string;

  @IsString()
  @MaxLength(2_000)
  expected: string;
}

export class HopDto {
  @IsOptional()
  @IsUUID()
  hopId?: string;

  @ValidateNested()
  @Type(() => EndpointReferenceDto)
  @IsDefined()
  source: EndpointReferenceDto;

  @ValidateNested()
  @Type(() => EndpointReferenceDto)
  @IsDefined()
  sink: EndpointReferenceDto;

  @IsOptional()
  @IsIn(EXPECTED_ACTIONS)
  expectedAction?: ExpectedAction;

  /** Policy ids are policy group ids (R12). */
  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  expectedPolicyIds?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  expectedMaskedFields?: string[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ExpectedPatternDto)
  expectedPatterns?: ExpectedPatternDto[];

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  notes?: string;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AssertionDto)
  assertions?: AssertionDto[];

  /** Default: derived from the sink (MCP_SERVER → MCP, CHANNEL → CHANNEL, else JSONRPC) (R12). */
  @IsOptional()
  @IsIn(PROTOCOLS)
  protocol?: Protocol;

  @IsOptional()
  @IsIn(DIRECTIONS)
  direction?: MessageDirection;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  method?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  toolName?: string;
}

export class CreateEvaluationDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @ValidateNested()
  @Type(() => EndpointReferenceDto)
  @IsDefined()
  source: EndpointReferenceDto;

  @ValidateNested()
  @Type(() => EndpointReferenceDto)
  @IsDefined()
  target: EndpointReferenceDto;

  /** The message the first hop carries: JSON (its value is `message.json`) or plain text (R12). */
  @IsString()
  @Length(1, 262_144)
  input: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => HopDto)
  hops: HopDto[];

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** PATCH: any field of the create body; `null` for a required one is a 400 (F21). */
export class UpdateEvaluationDto extends PatchType(CreateEvaluationDto) {}
