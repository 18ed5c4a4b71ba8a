import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { Injectable } from '@nestjs/common';

import { HopPipeline } from '../../pipeline/hop-pipeline';
import { StreamEnding } from '../../pipeline/refusal-answers';
import { REFUSALS } from '../../pipeline/refusal-codes';
import { SseWriter } from '../../pipeline/sse-writer';
import { StreamWatch } from '../../pipeline/stream-watch';
import { JsonRpcMessage, kindOf, rpcRefusal } from '../json-rpc';
import { McpCall, hopOf } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { McpHops } from '../mcp-hops';
import { translatedStream, writeJudged } from './judged-out';
import { AskedFor } from '../mcp-messages';
import { failureOf } from '../mcp-upstream';
import { jsonLinesAsEvents } from '../mcp-json-lines';
import {
  LegacySession,
  closeLegacySession,
  openLegacySession,
  sendJudgedInSession,
} from './legacy-session';
import { McpServerEras } from './server-eras';
import { TranslatedSessions } from './translated-sessions';
import { parseEventStream } from './upstream-events';
import { ListenBody, UpstreamListens } from './upstream-listens';
import {
  LegacyClient,
  META_SUBSCRIPTION_ID,
  envelopeOf,
  modernHeadersOf,
  objectOr,
  withEnvelope,
} from './revision-wire';

/** SEP-2575's filter fields and the notification each opts in to. */
const FILTERS: Record<string, string> = {
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
};
const CAPABILITY_OF: Record<string, string> = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
};
const KEEP_ALIVE_MS = 15_000;
/** T104: how soon a subscription set on any replica reaches a 2025 client's GET stream. */
const SUBSCRIPTIONS_POLL_MS = 1_000;

/**
 * T100: change notifications across revisions. A 2026 client's `subscriptions/listen` before a
 * 2025 server is a session's GET stream (and `resources/subscribe` per URI); a 2025 client's GET
 * stream before a 2026 server is a `subscriptions/listen` for every list the server announces.
 * Each notification is a hop; kill switches and withdrawn subscriptions end the stream (T2).
 */
@Injectable()
export class McpListenBridge {
  constructor(
    private readonly eras: McpServerEras,
    private readonly hops: McpHops,
    private readonly pipeline: HopPipeline,
    private readonly watch: StreamWatch,
    private readonly sessions: TranslatedSessions,
  ) {}

  async forLegacyServer(
    call: McpCall,
    listen: JsonRpcMessage,
    askedFor: AskedFor,
  ): Promise<McpAnswer> {
    const abort = new AbortController();
    const session = await openLegacySession(this.eras, call, envelopeOf(listen));
    const filter = objectOr(objectOr(listen.params).notifications);
    const capabilities = objectOr(session.result.capabilities);
    const honored: Record<string, unknown> = {};
    const wanted = new Set<string>();
    for (const [field, method] of Object.entries(FILTERS)) {
      if (filter[field] === true && objectOr(capabilities[CAPABILITY_OF[field]]).listChanged) {
        honored[field] = true;
        wanted.add(method);
      }
    }
    const uris = Array.isArray(filter.resourceSubscriptions)
      ? filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string')
      : [];
    if (uris.length > 0 && objectOr(capabilities.resources).subscribe === true) {
      honored.resourceSubscriptions = uris;
      wanted.add('notifications/resources/updated');
      for (const uri of uris) {
        // T104: each is the agent's request, judged as such (refused: not sent).
        await sendJudgedInSession(this.eras, this.hops, call, session, 'resources/subscribe', {
          uri,
        });
      }
    }
    const answer = await this.eras.send(call, 'GET', session.headers, undefined, {
      signal: abort.signal,
      isListening: true,
    });
    const subscriptionId = listen.id;
    const tagged = (m: JsonRpcMessage): JsonRpcMessage => {
      const params = objectOr(m.params);
      return {
        ...m,
        params: {
          ...params,
          _meta: { ...objectOr(params._meta), [META_SUBSCRIPTION_ID]: subscriptionId },
        },
      };
    };
    const ack: JsonRpcMessage = tagged({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: honored },
    });
    return this.stream(call, listen, askedFor, abort, session, async (writer) => {
      await writeJudged(this.hops, call, ack, writer);
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        return;
      }
      for await (const message of parseEventStream(answer.body)) {
        if (kindOf(message) === 'notification' && wanted.has(message.method!)) {
          await writeJudged(this.hops, call, tagged(message), writer);
        }
      }
    });
  }

  /** T100, T104: a 2025 client's GET stream, listening to its lists and subscribed resources. */
  async forModernServer(call: McpCall, client: LegacyClient): Promise<McpAnswer> {
    const abort = new AbortController();
    const listens = new UpstreamListens(abort.signal, {
      open: (uris, signal) => this.listenUpstream(call, client, uris, signal),
      changed: (uris, signal) => this.urisChanged(call, uris, signal),
    });
    if (!(await listens.open((await this.sessions.stateOf(call)).resourceUris))) {
      return { kind: 'empty', status: 405 };
    }
    return this.stream(call, undefined, undefined, abort, undefined, (writer) =>
      listens.relay((body) => this.relayUntagged(call, body, writer)),
    );
  }

  private async listenUpstream(
    call: McpCall,
    client: LegacyClient,
    uris: string[],
    signal: AbortSignal,
  ): Promise<ListenBody | undefined> {
    const notifications = {
      ...Object.fromEntries(Object.keys(FILTERS).map((f) => [f, true])),
      ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
    };
    const listen = withEnvelope(
      {
        jsonrpc: '2.0',
        id: `agp-listen-${randomUUID()}`,
        method: 'subscriptions/listen',
        params: { notifications },
      },
      client,
    );
    const answer = await this.eras.send(call, 'POST', modernHeadersOf(listen), listen, {
      signal,
      isListening: true,
    });
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      return undefined;
    }
    const type = String(answer.headers['content-type'] ?? '').toLowerCase();
    return type.startsWith('text/event-stream') ? answer.body : jsonLinesAsEvents(answer.body);
  }

  /** The session's URIs once they differ from `uris` (T104: read each second, any replica's). */
  private async urisChanged(
    call: McpCall,
    uris: string[],
    signal: AbortSignal,
  ): Promise<string[] | undefined> {
    const before = uris.join('\n');
    try {
      for (;;) {
        await sleep(SUBSCRIPTIONS_POLL_MS, undefined, { signal });
        const now = (await this.sessions.stateOf(call).catch(() => undefined))?.resourceUris;
        if (now && now.join('\n') !== before) {
          return now;
        }
      }
    } catch {
      return undefined;
    }
  }

  private async relayUntagged(call: McpCall, body: ListenBody, writer: SseWriter): Promise<void> {
    for await (const message of parseEventStream(body)) {
      if (
        kindOf(message) !== 'notification' ||
        message.method === 'notifications/subscriptions/acknowledged'
      ) {
        continue;
      }
      const params = objectOr(message.params);
      const { [META_SUBSCRIPTION_ID]: _id, ...meta } = objectOr(params._meta);
      const { _meta: _dropped, ...rest } = params;
      const untagged = {
        ...message,
        params: Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest,
      };
      await writeJudged(this.hops, call, untagged, writer);
    }
  }

  private stream(
    call: McpCall,
    listen: JsonRpcMessage | undefined,
    askedFor: AskedFor | undefined,
    abort: AbortController,
    session: LegacySession | undefined,
    relay: (writer: SseWriter) => Promise<void>,
  ): McpAnswer {
    return translatedStream(abort, async (writer) => {
      let stopped: StreamEnding | undefined;
      const unwatch = this.watch.watch(call.admission, (ending) => {
        stopped ??= ending;
        abort.abort();
      });
      const keepAlive = setInterval(() => void writer.keepAlive(), KEEP_ALIVE_MS);
      try {
        await relay(writer);
      } catch (error) {
        if (!abort.signal.aborted) {
          stopped ??= {
            refusal: REFUSALS.streamIncomplete,
            reason: failureOf(error, call.route.server).message,
          };
        }
      } finally {
        clearInterval(keepAlive);
        unwatch();
        abort.abort();
        if (session) {
          closeLegacySession(this.eras, call, session);
        }
      }
      if (stopped !== undefined && listen) {
        // T2, T95: the listen request is answered, audited, like any request a stream owed.
        const { refusal, reason } = stopped;
        const isStop = refusal === REFUSALS.killSwitch;
        const error = rpcRefusal(
          listen.id,
          refusal,
          { reasons: [reason], correlationId: call.correlationId },
          reason,
        );
        await this.pipeline.refuse(hopOf(call, 'RESPONSE', error, askedFor), {
          type: 'COMMUNICATION_AUDIT',
          action: isStop ? 'BLOCK' : 'ERROR',
          reason,
          ...(isStop ? {} : { details: { outcome: 'ERROR' } }),
        });
        await writer.message(error);
      }
    });
  }
}
