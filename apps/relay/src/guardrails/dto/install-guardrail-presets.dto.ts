import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsUUID,
  Max,
  Min,
} from 'class-validator';

export const PRESET_NAMES = ['PII', 'SECRETS', 'PROMPT_INJECTION'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** `POST /relay/v1/guardrail-presets/install` (GR11). */
export class InstallGuardrailPresetsDto {
  /** Default: all three. */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(PRESET_NAMES, { each: true })
  presets?: PresetName[];

  /** Bind each group at TENANT level (default true); false installs groups and packs only. */
  @IsOptional()
  @IsBoolean()
  bind?: boolean;

  /** The bindings' priority (D22; default the relay's default). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  priority?: number;

  /** The evaluation packs' owner; default the calling user (required when the caller is not one). */
  @IsOptional()
  @IsUUID()
  ownerUserId?: string;
}

export interface InstalledPreset {
  preset: PresetName;
  groupId: string;
  groupName: string;
  version: string;
  bindingId?: string;
  packId: string;
}

export interface GuardrailPresetSummary {
  name: PresetName;
  groupName: string;
  description: string;
  regoSource: string;
  evaluations: number;
}
