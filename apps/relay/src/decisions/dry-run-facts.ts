import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { ToolDefinitionsRepository } from '../mcp-tools/tool-definitions.repository';
import { driftOf } from '../mcp-tools/tool-drift';
import { TrafficSettingsRepository } from '../traffic-settings/traffic-settings.repository';
import {
  SPEAKING_METHODS,
  disclosureInputOf,
  disclosureTermsOf,
} from '../traffic/disclosure/disclosure-terms';
import { dataPartValidation, declaredDataSchema } from '../validation/a2a-validation';
import { toolCallValidation } from '../validation/mcp-validation';
import { SchemaValidator } from '../validation/schema-validator';
import { ValidationResult, validationOf } from '../validation/validation.types';
import { HopFacts } from './decision-input';
import { EndpointRef } from './decision.types';
import { EndpointDirectoryRepository } from './endpoint-directory.repository';

/** What a dry run's hop is given besides what its caller sent (GR36). */
export type DryRunHop = Omit<HopFacts, 'toolDefinition' | 'validation' | 'disclosure'>;

/**
 * GR36: the facts a live hop of the same shape would carry, read from what the relay stored:
 * the tool's definition as its server last listed it (D51) and its schemas' check (GR21), an
 * agent card's data-part schemas (GR22), and the disclosure terms of a delivery to a person
 * (D45, T73), as the first message of a conversation.
 */
@Injectable()
export class DryRunFacts {
  constructor(
    private readonly directory: EndpointDirectoryRepository,
    private readonly tools: ToolDefinitionsRepository,
    private readonly settings: TrafficSettingsRepository,
    private readonly validator: SchemaValidator,
  ) {}

  async of(tx: Tx, hop: DryRunHop): Promise<HopFacts> {
    const tool = await this.toolFacts(tx, hop);
    const data = await this.dataParts(tx, hop);
    const validation = validationOf([...(tool?.checked ?? []), ...data]);
    const disclosure = await this.disclosure(tx, hop);
    return {
      ...hop,
      ...(tool ? { toolDefinition: tool.input } : {}),
      ...(validation ? { validation } : {}),
      ...(disclosure ? { disclosure } : {}),
    };
  }

  /** T86, GR21: as McpHops.withToolFacts, for the tools/call of an agent or a person. */
  private async toolFacts(tx: Tx, hop: DryRunHop) {
    const isRequest = hop.direction === 'REQUEST';
    const [party, server] = isRequest ? [hop.source, hop.sink] : [hop.sink, hop.source];
    if (
      hop.protocol !== 'MCP' ||
      hop.method !== 'tools/call' ||
      hop.tool === undefined ||
      server.type !== 'MCP_SERVER'
    ) {
      return undefined;
    }
    const [row] = await this.tools.ofServer(tx, hop.tenantId, server.id, [hop.tool]);
    if (!row) {
      return undefined;
    }
    const kind = party.type === 'USER' ? 'USER_TO_MCP_SERVER' : 'AGENT_TO_MCP_SERVER';
    const same = await this.tools.sameNamesElsewhere(
      tx,
      hop.tenantId,
      server.id,
      { kind, id: party.id },
      [hop.tool],
    );
    const drift = driftOf(row, same);
    const checked = toolCallValidation(
      hop.direction,
      hop.message.json,
      drift.definition,
      this.validator.check,
    );
    return { input: drift.input, checked };
  }

  /** GR22: the A2A target's card: the sink of a request, the source of an answer. */
  private async dataParts(tx: Tx, hop: DryRunHop): Promise<ValidationResult[]> {
    const target: EndpointRef = hop.direction === 'REQUEST' ? hop.sink : hop.source;
    if (hop.protocol !== 'JSONRPC' || target.type !== 'AGENT') {
      return [];
    }
    const card = await this.directory.agentCard(tx, hop.tenantId, target.id);
    const schema = declaredDataSchema(card, hop.direction);
    return dataPartValidation(hop.message.json, schema, this.validator.check);
  }

  /** T73: an agent's answer to a person (human path) or to a channel's people (CH15). */
  private async disclosure(tx: Tx, hop: DryRunHop) {
    if (hop.direction !== 'RESPONSE' || hop.source.type !== 'AGENT') {
      return undefined;
    }
    const toPerson =
      hop.protocol === 'JSONRPC' &&
      hop.sink.type === 'USER' &&
      SPEAKING_METHODS.has(hop.method ?? '');
    const toChannel = hop.protocol === 'CHANNEL' && hop.sink.type === 'CHANNEL';
    if (!toPerson && !toChannel) {
      return undefined;
    }
    const channel = toChannel
      ? await this.directory.channelSettings(tx, hop.tenantId, hop.sink.id)
      : undefined;
    const terms = disclosureTermsOf(await this.settings.read(tx, hop.tenantId), channel);
    return disclosureInputOf(terms, false);
  }
}
