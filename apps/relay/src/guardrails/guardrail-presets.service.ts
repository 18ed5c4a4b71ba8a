import { Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';

import { EvaluationPacksService } from '../evaluation-packs/evaluation-packs.service';
import { EvaluationsService } from '../evaluation-packs/evaluations.service';
import { PolicyBindingsService } from '../policies/policy-bindings.service';
import { PolicyGroupsService } from '../policies/policy-groups.service';
import { PolicyVersionsService } from '../policies/policy-versions.service';
import {
  GuardrailPresetSummary,
  InstallGuardrailPresetsDto,
  InstalledPreset,
  PRESET_NAMES,
} from './dto/install-guardrail-presets.dto';
import { GUARDRAIL_PRESETS, GuardrailPreset, PRESET_AGENT_ID, PRESET_SERVER_ID } from './presets';

/** GR11: through the API's own services, so every step is validated, audited and published. */
@Injectable()
export class GuardrailPresetsService {
  constructor(
    private readonly groups: PolicyGroupsService,
    private readonly versions: PolicyVersionsService,
    private readonly bindings: PolicyBindingsService,
    private readonly packs: EvaluationPacksService,
    private readonly evaluations: EvaluationsService,
  ) {}

  catalogue(): GuardrailPresetSummary[] {
    return GUARDRAIL_PRESETS.map((p) => ({
      name: p.name,
      groupName: p.groupName,
      description: p.description,
      regoSource: p.regoSource,
      evaluations: p.evaluations.length,
    }));
  }

  async install(ctx: RequestContext, dto: InstallGuardrailPresetsDto): Promise<InstalledPreset[]> {
    const wanted = new Set(dto.presets ?? PRESET_NAMES);
    const installed: InstalledPreset[] = [];
    for (const preset of GUARDRAIL_PRESETS.filter((p) => wanted.has(p.name))) {
      installed.push(await this.installOne(ctx, preset, dto));
    }
    return installed;
  }

  private async installOne(
    ctx: RequestContext,
    preset: GuardrailPreset,
    dto: InstallGuardrailPresetsDto,
  ): Promise<InstalledPreset> {
    const group = await this.groups.create(ctx, {
      name: preset.groupName,
      description: preset.description,
    });
    const version = await this.versions.create(ctx, group.id, {
      regoSource: preset.regoSource,
      description: `Ready-made ${preset.name} guardrail (GR11)`,
    });
    const binding =
      dto.bind === false
        ? undefined
        : await this.bindings.create(ctx, {
            groupId: group.id,
            groupVersion: version.version,
            bindingLevel: 'TENANT',
            ...(dto.priority !== undefined ? { priority: dto.priority } : {}),
          });
    const pack = await this.packs.create(ctx, {
      name: `${preset.groupName}: evaluations`,
      description: `What the ready-made ${preset.name} guardrail must do (GR11).`,
      ...(dto.ownerUserId ? { ownerUserId: dto.ownerUserId } : {}),
    });
    for (const evaluation of preset.evaluations) {
      await this.evaluations.create(ctx, pack.id, {
        ...evaluation,
        source: { type: 'AGENT', id: PRESET_AGENT_ID, name: 'any agent' },
        target: { type: 'MCP_SERVER', id: PRESET_SERVER_ID, name: 'any tool server' },
      });
    }
    return {
      preset: preset.name,
      groupId: group.id,
      groupName: group.name,
      version: version.version,
      ...(binding ? { bindingId: binding.bindingId } : {}),
      packId: pack.id,
    };
  }
}
