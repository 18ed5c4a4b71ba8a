import { MessageDirection } from '@agp/contracts';

import { EndpointRef } from '../../decisions/decision.types';
import { Admission } from '../pipeline/admission';
import { Hop } from '../pipeline/hop.types';
import { CallTrace } from '../tracing/call-trace';
import { ChannelDirectory, ChannelRoute } from './channel-directory';
import { ChannelMessage } from './channel-inbound';

/** One event on its way: the route it takes, the person behind it, the tenant's settings. */
export interface ChannelCall {
  route: ChannelRoute;
  eventId: string;
  correlationId: string;
  message: ChannelMessage;
  /** CH10: the tenant's person the channel's sender is, when the channel names one. */
  person?: { id: string; email: string };
  captureContent: boolean;
  /** T94: the inbound request's trace context, kept with the event. */
  trace: CallTrace;
}

export function channelRef(route: ChannelRoute): EndpointRef {
  return { type: 'CHANNEL', id: route.channel.id, name: route.channel.name };
}

/** The actor of a channel's hops (D43): the person when known, else the channel itself. */
export function actorOf(call: Pick<ChannelCall, 'route' | 'person'>): EndpointRef {
  return call.person
    ? { type: 'USER', id: call.person.id, name: call.person.email }
    : channelRef(call.route);
}

/** CH8, D43: `message.json` is `{text, sender?, thread?}`; the person is `input.user`. */
export function channelHopOf(
  call: ChannelCall,
  direction: MessageDirection,
  json: { text: string } & Record<string, unknown>,
): Hop {
  const channel = channelRef(call.route);
  const agent: EndpointRef = {
    type: 'AGENT',
    id: call.route.agent!.id,
    name: call.route.agent!.name,
  };
  return {
    tenantId: call.route.tenantId,
    ...(call.route.tenantSlug ? { tenantSlug: call.route.tenantSlug } : {}),
    correlationId: call.correlationId,
    protocol: 'CHANNEL',
    direction,
    source: direction === 'REQUEST' ? channel : agent,
    sink: direction === 'REQUEST' ? agent : channel,
    agent: actorOf(call),
    ...(call.person ? { user: { id: call.person.id, email: call.person.email } } : {}),
    method: 'message',
    message: { json, text: json.text },
    details: {
      channelId: call.route.channel.id,
      channelKind: call.route.channel.kind,
      channelEventId: call.eventId,
      ...(call.message.thread ? { threadId: call.message.thread.id } : {}),
    },
    trace: call.trace,
    captureContent: call.captureContent,
  };
}

/** The request hop's message: the text, who wrote it and where (never Slack's raw envelope). */
export function requestJson(message: ChannelMessage): { text: string } & Record<string, unknown> {
  return {
    text: message.text,
    ...(message.sender ? { sender: message.sender } : {}),
    ...(message.thread ? { threadId: message.thread.id } : {}),
  };
}

/** D32, D35, D36, CH5: the channel is the caller rate limits count. */
export function channelAdmission(
  directory: ChannelDirectory,
  route: ChannelRoute,
  correlationId: string,
): Admission {
  const agentId = route.agent?.id;
  return {
    tenantId: route.tenantId,
    agentId: route.channel.id,
    callerLabel: `channel ${route.channel.id}`,
    correlationId,
    ...(route.subscription && agentId ? { subscriptionId: route.subscription.id } : {}),
    targetLabel: agentId ? `agent ${agentId}` : 'any agent',
    targetNoun: 'this agent',
    targets: [
      { scope: 'TENANT', id: route.tenantId },
      { scope: 'CHANNEL', id: route.channel.id },
      ...(agentId ? [{ scope: 'AGENT' as const, id: agentId }] : []),
    ],
    isStillSubscribed: async () =>
      (await directory.route(route.tenantId, route.channel.id))?.subscription !== undefined,
  };
}
