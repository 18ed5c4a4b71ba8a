import { randomUUID } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { RELAY_DATABASE } from '../../database/tokens';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { aiDisclosureHeader } from '../disclosure/disclosure-terms';
import { CallTrace } from '../tracing/call-trace';
import { ChannelDirectory, ChannelRoute } from './channel-directory';
import { ChannelEventsRepository } from './channel-events.repository';
import {
  Inbound,
  InboundRequest,
  isAllowedOrigin,
  slackInbound,
  webCallerFault,
  webInbound,
  webhookInbound,
} from './channel-inbound';
import { channelAdmission, channelHopOf, requestJson } from './channel-hops';
import { ChannelWorker } from './channel-worker';

/** What the platform is answered: at once, before any agent is asked (CH4). */
export interface IntakeAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface IntakeRequest {
  channelId: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  correlationId: string;
}

/** D43, D56, CH2, CH3, CH7, CH9: stored once, acknowledged; the reply follows from the worker. */
@Injectable()
export class ChannelIntake {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly directory: ChannelDirectory,
    private readonly traffic: TrafficDirectory,
    private readonly pipeline: HopPipeline,
    private readonly events: ChannelEventsRepository,
    private readonly worker: ChannelWorker,
  ) {}

  async receive(request: IntakeRequest): Promise<IntakeAnswer> {
    const route = await this.routeOf(request.channelId);
    const cors = corsHeaders(route, request.headers.origin);
    const inbound = this.read(route, request);
    if (inbound.kind === 'fault') {
      throw new HttpProblem(
        inbound.status,
        faultCode(inbound.status),
        inbound.reason,
        undefined,
        cors,
      );
    }
    if (inbound.kind === 'answer') {
      return { status: inbound.status, body: inbound.body, headers: cors };
    }
    // Slack must not retry what the relay refused on purpose.
    const refusalHeaders =
      route.channel.kind === 'SLACK' ? { ...cors, 'x-slack-no-retry': '1' } : cors;
    if (!route.agent || !route.subscription) {
      throw new HttpProblem(
        403,
        'forbidden',
        `channel ${route.channel.id} is not subscribed to any agent (CHANNEL_TO_AGENT)`,
        undefined,
        refusalHeaders,
      );
    }
    // T94: read as every traffic path reads it (T89); only a valid context is kept.
    const trace = CallTrace.of(request.headers);
    const stored = await this.database.inTenant(route.tenantId, (tx) =>
      this.events.insert(tx, {
        id: randomUUID(),
        tenantId: route.tenantId,
        channelId: route.channel.id,
        externalId: inbound.externalId,
        correlationId: request.correlationId,
        message: inbound.message,
        trace: trace.upstreamHeaders(),
      }),
    );
    const ack = {
      status: route.channel.kind === 'SLACK' ? 200 : 202,
      body: { eventId: stored.id },
      headers: cors,
    };
    if (!stored.isNew) {
      // CH3: a retry of an event already stored is acknowledged and goes no further.
      return ack;
    }
    const settings = await this.traffic.settings(route.tenantId);
    const call = {
      route,
      eventId: stored.id,
      correlationId: request.correlationId,
      message: inbound.message,
      captureContent: settings.contentCapture,
      trace,
    };
    const hop = channelHopOf(call, 'REQUEST', requestJson(inbound.message));
    const refused = await this.pipeline.admit(
      channelAdmission(this.directory, route, request.correlationId),
      [hop],
    );
    await this.database.inTenant(route.tenantId, (tx) =>
      this.events.admitted(
        tx,
        stored.id,
        refused ? (refused.kind === 'RATE_LIMITED' ? 'GONE' : 'REFUSED') : 'PENDING',
      ),
    );
    switch (refused?.kind) {
      case undefined:
        this.worker.kick();
        return ack;
      case 'NOT_SUBSCRIBED':
        throw new HttpProblem(403, 'forbidden', refused.reason, undefined, refusalHeaders);
      case 'KILL_SWITCH':
        throw new HttpProblem(403, 'kill-switch', refused.reason, undefined, refusalHeaders);
      case 'RATE_LIMITED':
        throw new HttpProblem(429, 'rate-limited', refused.reason, undefined, {
          ...cors,
          'retry-after': String(refused.retryAfterSeconds),
        });
    }
  }

  /** CH9: a WEB channel's reply, read by the visitor's page with the channel's key. */
  async reply(
    channelId: string,
    eventId: string,
    headers: IncomingHttpHeaders,
  ): Promise<IntakeAnswer> {
    const route = await this.routeOf(channelId);
    const cors = corsHeaders(route, headers.origin);
    if (route.channel.kind !== 'WEB') {
      throw new HttpProblem(404, 'not-found', 'only a WEB channel’s replies are read here');
    }
    const fault = webCallerFault(
      route.channel.settings,
      this.directory.secretsOf(route.channel),
      headers,
    );
    if (fault?.kind === 'fault') {
      throw new HttpProblem(fault.status, faultCode(fault.status), fault.reason, undefined, cors);
    }
    const event = await this.database.inTenant(route.tenantId, (tx) =>
      this.events.find(tx, route.tenantId, channelId, eventId),
    );
    if (!event) {
      throw new HttpProblem(
        404,
        'not-found',
        `no event ${eventId} of this channel`,
        undefined,
        cors,
      );
    }
    const isFinal = ['ANSWERED', 'REFUSED', 'FAILED'].includes(event.status);
    const status =
      event.status === 'RECEIVED' || event.status === 'REPLY_HELD' ? 'PENDING' : event.status;
    const marking = isFinal ? event.reply?.marking : undefined;
    return {
      status: 200,
      body: {
        eventId: event.id,
        status: status === 'REPLYING' ? 'PENDING' : status,
        ...(isFinal && event.reply ? { reply: event.reply } : {}),
      },
      // CH18: the marked reply's AI-Disclosure header, readable by the page's script too.
      headers: marking
        ? {
            ...cors,
            'ai-disclosure': aiDisclosureHeader(marking),
            'access-control-expose-headers': 'AI-Disclosure',
          }
        : cors,
    };
  }

  /** CORS preflight of the embedded chat (CH9): only an allowed origin of a WEB channel. */
  async preflight(channelId: string, origin: string | undefined): Promise<IntakeAnswer> {
    const route = await this.routeOf(channelId);
    const cors = corsHeaders(route, origin);
    if (!cors['access-control-allow-origin']) {
      throw new HttpProblem(
        403,
        'forbidden',
        `origin ${String(origin ?? '(none)')} is not allowed for this channel`,
      );
    }
    return {
      status: 204,
      body: undefined,
      headers: {
        ...cors,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type, x-agp-channel-key',
        'access-control-max-age': '600',
      },
    };
  }

  private read(route: ChannelRoute, request: IntakeRequest): Inbound {
    const secrets = this.directory.secretsOf(route.channel);
    const inbound: InboundRequest = {
      headers: request.headers,
      rawBody: request.rawBody,
      body: request.body,
      nowSeconds: Math.floor(Date.now() / 1000),
    };
    switch (route.channel.kind) {
      case 'SLACK':
        return slackInbound(secrets, inbound);
      case 'WEBHOOK':
        return webhookInbound(secrets, inbound);
      case 'WEB':
        return webInbound(route.channel.settings, secrets, inbound);
      default:
        return {
          kind: 'fault',
          status: 409,
          reason: `a ${route.channel.kind} channel takes no events yet (SLACK, WEBHOOK, WEB do)`,
        };
    }
  }

  private async routeOf(channelId: string): Promise<ChannelRoute> {
    const tenantId = await this.directory.tenantOf(channelId);
    const route = tenantId ? await this.directory.route(tenantId, channelId) : undefined;
    if (!route) {
      throw HttpProblem.notFound(`no channel ${channelId}`);
    }
    return route;
  }
}

function corsHeaders(route: ChannelRoute, origin: string | undefined): Record<string, string> {
  return route.channel.kind === 'WEB' && isAllowedOrigin(route.channel.settings, origin)
    ? { 'access-control-allow-origin': origin!, vary: 'Origin' }
    : {};
}

function faultCode(status: number): string {
  return status === 401
    ? 'invalid-signature'
    : status === 403
      ? 'forbidden'
      : status === 409
        ? 'conflict'
        : 'validation-error';
}
