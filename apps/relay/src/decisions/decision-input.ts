import { MessageDirection, Protocol } from '@agp/contracts';

import { ValidationInput } from '../validation/validation.types';
import {
  DecisionInput,
  DisclosureInput,
  EndpointRef,
  PaymentInput,
  ToolDefinitionInput,
} from './decision.types';

/** What a hop holds that POLICY.md's input document is made of (the pipeline's Hop has it all). */
export interface HopFacts {
  tenantId: string;
  tenantSlug?: string;
  correlationId?: string;
  protocol: Protocol;
  direction: MessageDirection;
  source: EndpointRef;
  sink: EndpointRef;
  user?: { id: string; email?: string };
  virtualServer?: EndpointRef & { prefix: string };
  method?: string;
  tool?: string;
  toolDefinition?: ToolDefinitionInput;
  disclosure?: DisclosureInput;
  /** D60, payments.md PY8. */
  payment?: PaymentInput;
  message: { json: unknown; text: string };
  validation?: ValidationInput;
}

/**
 * The one builder of the input document: the live pipeline and the dry run (GR36) both go through
 * it, so a policy tried from the API sees the fields a live hop of that shape would give it.
 */
export function decisionInputOf(hop: HopFacts, time = new Date().toISOString()): DecisionInput {
  return {
    tenant: { id: hop.tenantId, ...(hop.tenantSlug ? { slug: hop.tenantSlug } : {}) },
    protocol: hop.protocol,
    direction: hop.direction,
    source: hop.source,
    sink: hop.sink,
    ...(hop.user ? { user: hop.user } : {}),
    ...(hop.virtualServer ? { virtualServer: hop.virtualServer } : {}),
    ...(hop.method ? { method: hop.method } : {}),
    ...(hop.tool
      ? {
          tool: {
            name: hop.tool,
            ...(hop.toolDefinition ? { definition: hop.toolDefinition } : {}),
          },
        }
      : {}),
    ...(hop.disclosure ? { disclosure: hop.disclosure } : {}),
    ...(hop.payment ? { payment: hop.payment } : {}),
    message: hop.message,
    ...(hop.validation ? { validation: hop.validation } : {}),
    ...(hop.correlationId ? { correlationId: hop.correlationId } : {}),
    time,
  };
}
