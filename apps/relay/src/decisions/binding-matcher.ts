import { BindingLevel } from '@agp/contracts';

import { EndpointRef } from './decision.types';

/** What a binding names (D23), and when it is valid. */
export interface BindingScope {
  bindingLevel: BindingLevel;
  agentId?: string;
  sourceAgentId?: string;
  sinkAgentId?: string;
  channelId?: string;
  validFrom: number;
  validTo?: number;
}

function isAgent(endpoint: EndpointRef, id: string | undefined): boolean {
  return endpoint.type === 'AGENT' && endpoint.id === id;
}

function isChannel(endpoint: EndpointRef, id: string | undefined): boolean {
  return endpoint.type === 'CHANNEL' && endpoint.id === id;
}

/** D23, R7: CHANNEL_SUBSCRIPTION matches either way; outside its window nothing matches. */
export function bindingApplies(
  binding: BindingScope,
  source: EndpointRef,
  sink: EndpointRef,
  now: number,
): boolean {
  if (binding.validFrom > now || (binding.validTo !== undefined && binding.validTo <= now)) {
    return false;
  }
  switch (binding.bindingLevel) {
    case 'TENANT':
      return true;
    case 'AGENT':
      return isAgent(source, binding.agentId) || isAgent(sink, binding.agentId);
    case 'SUBSCRIPTION':
      return isAgent(source, binding.sourceAgentId) && isAgent(sink, binding.sinkAgentId);
    case 'CHANNEL':
      return isChannel(source, binding.channelId) || isChannel(sink, binding.channelId);
    case 'CHANNEL_SUBSCRIPTION':
      return (
        (isChannel(source, binding.channelId) && isAgent(sink, binding.agentId)) ||
        (isAgent(source, binding.agentId) && isChannel(sink, binding.channelId))
      );
  }
}
