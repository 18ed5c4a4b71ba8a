import { Injectable } from '@nestjs/common';

import { HopPipeline } from '../pipeline/hop-pipeline';
import {
  emptyResponse,
  jsonResponse,
  rawResponse,
  streamResponse,
} from '../pipeline/in-process-answer';
import { InstalledLicences } from '../pipeline/installed-licences';
import { REFUSALS, Refusal } from '../pipeline/refusal-codes';
import { TrafficCaller } from '../pipeline/traffic-intake';
import { JsonRpcMessage, kindOf, rpcRefusal } from './json-rpc';
import { McpCall, hopOf } from './mcp-call';
import type { McpAnswer } from './mcp-exchange';
import {
  McpUpstream,
  UpstreamAnswer,
  UpstreamFailure,
  UpstreamRequest,
  carriedRequestHeaders,
  serverLabel,
} from './mcp-upstream';

/** The MCP relay as the publisher's side is reached (MK32): the installation is the caller. */
export interface PublisherMcpRelay {
  post(caller: PublisherCaller, serverId: string, body: unknown): Promise<McpAnswer>;
  listen(caller: PublisherCaller, serverId: string): Promise<McpAnswer>;
  end(caller: PublisherCaller, serverId: string): Promise<McpAnswer>;
}

export type PublisherCaller = TrafficCaller & { installation: { licence?: string } };

/**
 * MK31–MK33: an installed MCP entry's upstream is its publisher's MCP server, reached in-process
 * as a second call on the publisher's side (MK16's shape for `/relay/mcp`): there the installation
 * is the calling party, so the publisher's kill switches, rate limits, bindings and trail apply,
 * and the installer's agent, user and tenant stay on the installer's side. The answer comes back
 * as a server's HTTP answer, and the installer's side judges it as any server's.
 */
@Injectable()
export class InstalledMcpServers {
  private publisher?: PublisherMcpRelay;

  constructor(
    upstream: McpUpstream,
    private readonly pipeline: HopPipeline,
    private readonly licences: InstalledLicences,
  ) {
    upstream.attachInstalled((request) => this.send(request));
  }

  /** Set once by McpRelayService, which this class cannot take in its constructor (a cycle). */
  attach(publisher: PublisherMcpRelay): void {
    this.publisher = publisher;
  }

  /**
   * MK16, MK23 for MCP: a suspended installation (−31009) or a licensed one without a valid
   * licence (−31008) is refused on the installer's side, each message audited there as BLOCK
   * before the answer; a GET or DELETE (no message) gets the refusal with `id: null` and 403.
   */
  async refusal(call: McpCall, messages: JsonRpcMessage[]): Promise<McpAnswer | undefined> {
    const installed = call.route.server.installation;
    if (!installed) {
      return undefined;
    }
    const label = `MCP server "${call.route.server.name}" (${call.serverId})`;
    if (installed.status !== 'ACTIVE') {
      const why = `the publisher of ${label} has suspended this installation`;
      return this.refuse(call, messages, REFUSALS.installationSuspended, why);
    }
    if (!installed.licensed) {
      return undefined;
    }
    const { check, token } = await this.licences.newest(installed);
    if (!check.valid) {
      const why = `${label} needs a valid licence: ${check.reason}`;
      return this.refuse(call, messages, REFUSALS.licenceInvalid, why, {
        licenceReason: check.reason,
      });
    }
    call.licence = token;
    return undefined;
  }

  /** MK32: the publisher's answer as a server's HTTP answer, so McpExchange reads it unchanged. */
  async send(request: UpstreamRequest): Promise<UpstreamAnswer> {
    const installed = request.server.installation!;
    const unavailable = new UpstreamFailure(
      502,
      `${serverLabel(request.server)} is not available from its publisher`,
    );
    if (installed.status !== 'ACTIVE') {
      throw unavailable;
    }
    let licence = request.licence;
    if (installed.licensed && !licence) {
      // A request made beside the agent's own (a re-list, a revision probe, a virtual member).
      const newest = await this.licences.newest(installed);
      if (!newest.check.valid) {
        throw unavailable;
      }
      licence = newest.token;
    }
    const caller: PublisherCaller = {
      tenantId: installed.publisherTenantId,
      agentId: installed.id,
      correlationId: request.correlationId,
      // MK18: the transport's headers and the trace cross; the installer's token never does.
      headers: {
        ...carriedRequestHeaders(request.agentHeaders),
        ...request.headers,
        ...request.trace?.upstreamHeaders(),
      },
      signal: request.signal,
      installation: { ...(licence ? { licence } : {}) },
    };
    let answer: McpAnswer;
    try {
      answer = await this.toPublisher(caller, installed.targetId, request);
    } catch {
      // MK9: why the publisher's side refused is the publisher's; the installer learns only this.
      throw unavailable;
    }
    switch (answer.kind) {
      case 'json':
        return jsonResponse(answer.status, answer.body, answer.headers);
      case 'empty':
        return emptyResponse(answer.status, answer.headers);
      case 'raw':
        return rawResponse(answer.status, answer.body, answer.headers);
      case 'stream':
        return streamResponse(answer, answer.headers, request.signal);
    }
  }

  private toPublisher(
    caller: PublisherCaller,
    serverId: string,
    request: UpstreamRequest,
  ): Promise<McpAnswer> {
    switch (request.method) {
      case 'POST':
        return this.publisher!.post(caller, serverId, JSON.parse(request.body ?? 'null'));
      case 'GET':
        return this.publisher!.listen(caller, serverId);
      case 'DELETE':
        return this.publisher!.end(caller, serverId);
    }
  }

  private async refuse(
    call: McpCall,
    messages: JsonRpcMessage[],
    refusal: Refusal,
    reason: string,
    details: Record<string, unknown> = {},
  ): Promise<McpAnswer> {
    const refused = messages.map((message) =>
      this.pipeline.refusing(hopOf(call, 'REQUEST', message), {
        type: 'COMMUNICATION_AUDIT',
        action: 'BLOCK',
        reason,
        details: {
          agpCode: refusal.agpCode,
          installationId: call.route.server.installation!.id,
          ...details,
        },
      }),
    );
    await Promise.all(refused.map((r) => r.audited));
    const data = (decisionId?: string): Record<string, unknown> => ({
      reasons: [reason],
      ...(decisionId ? { decisionId } : {}),
      correlationId: call.correlationId,
    });
    const answers = messages.flatMap((message, i) =>
      kindOf(message) === 'request'
        ? [rpcRefusal(message.id, refusal, data(refused[i].decisionId), reason)]
        : [],
    );
    if (answers.length === 0) {
      return { kind: 'json', status: 403, body: rpcRefusal(null, refusal, data(), reason) };
    }
    return { kind: 'json', status: 200, body: messages.length > 1 ? answers : answers[0] };
  }
}
