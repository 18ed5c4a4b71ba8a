import { Protocol } from '@agp/contracts';

import { textOf } from '../decisions/apply-masks';
import { DecisionInput, EndpointRef, HopDecision } from '../decisions/decision.types';
import {
  EndpointReference,
  EvaluationResponse,
  EvaluationVerdict,
  Hop,
} from './dto/pack-responses';
import { hopVerdictOf, skipped } from './verdicts';

export type DecideHop = (input: DecisionInput) => Promise<HopDecision>;
export type DescribeEndpoint = (endpoint: EndpointReference) => Promise<EndpointRef>;

/** R12: the message of the first hop: the input's JSON value, or plain text as `{"text": …}`. */
export function initialMessage(input: string): unknown {
  try {
    const parsed: unknown = JSON.parse(input);
    if (typeof parsed === 'object' && parsed !== null) {
      return parsed;
    }
  } catch {
    // not JSON: plain text
  }
  return { text: input };
}

function protocolOf(hop: Hop): Protocol {
  if (hop.protocol) {
    return hop.protocol as Protocol;
  }
  switch (hop.sink.type) {
    case 'MCP_SERVER':
      return 'MCP';
    case 'CHANNEL':
      return 'CHANNEL';
    case 'LLM_GATEWAY':
      return 'REST';
    default:
      return 'JSONRPC';
  }
}

/** D15, D27, R12: a blocked hop does not stop the run, so every expectation gets a verdict. */
export async function simulateEvaluation(
  tenantId: string,
  evaluation: EvaluationResponse,
  decide: DecideHop,
  describe: DescribeEndpoint,
): Promise<EvaluationVerdict> {
  if (!evaluation.enabled) {
    return skipped(evaluation);
  }
  let message = initialMessage(evaluation.input);
  const hops: EvaluationVerdict['hops'] = [];
  for (const hop of evaluation.hops) {
    const decision = await decide({
      tenant: { id: tenantId },
      protocol: protocolOf(hop),
      direction: (hop.direction as DecisionInput['direction'] | undefined) ?? 'REQUEST',
      source: await describe(hop.source),
      sink: await describe(hop.sink),
      ...(hop.method ? { method: hop.method } : {}),
      ...(hop.toolName ? { tool: { name: hop.toolName } } : {}),
      message: { json: message, text: textOf(message) },
      time: new Date().toISOString(),
    });
    hops.push(hopVerdictOf(hop, decision));
    message = decision.maskedMessage.json;
  }
  return {
    evaluationId: evaluation.id,
    name: evaluation.name,
    status: hops.every((h) => h.passed) ? 'PASSED' : 'FAILED',
    hops,
  };
}
