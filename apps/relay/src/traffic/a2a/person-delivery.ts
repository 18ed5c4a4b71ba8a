import { Injectable } from '@nestjs/common';

import { AiDisclosures, Carried, DisclosurePlan } from '../disclosure/ai-disclosures';
import {
  SPEAKING_METHODS,
  aiDisclosureHeader,
  disclosureTermsOf,
  syntheticMarkingOf,
} from '../disclosure/disclosure-terms';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { JsonRpcMessage } from '../mcp/json-rpc';
import { A2aCall, a2aHopOf } from './a2a-call';
import { A2aAnswer, A2aAnswerView } from './a2a-exchange';

/** 1.0 results wrap their object (`{task}`, `{message}`); 0.3 results are the object. */
const WRAPPERS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

type Json = Record<string, unknown>;

/** One answer to a person under way: the plan read before it is judged, what it carried after. */
export class PersonDelivery {
  private carried?: Carried;
  private contextId?: string;
  private isRecorded = false;

  constructor(
    private readonly call: A2aCall,
    private readonly method: string,
    private readonly plan: DisclosurePlan,
    private readonly disclosures: AiDisclosures,
  ) {}

  /** A whole answer: `delivered` adds the disclosure and marking to it (traffic.md T74). */
  view(inner?: A2aAnswerView): A2aAnswerView {
    return {
      seen: (answer) => (inner ? inner.seen(answer) : Promise.resolve(answer)),
      delivered: (judged) => this.marked(inner ? inner.delivered(judged) : judged),
    };
  }

  /** After the whole answer is made: recorded (T1: before the person reads it), its header added. */
  async settle(answer: A2aAnswer): Promise<A2aAnswer> {
    if (!this.carried || answer.kind !== 'json') {
      return answer;
    }
    await this.record(answer.body as JsonRpcMessage);
    return { ...answer, headers: { ...answer.headers, ...this.headers() } };
  }

  /** T74: a stream is one delivery; its first event carries the disclosure and is recorded. */
  async streamed(event: JsonRpcMessage): Promise<JsonRpcMessage> {
    const marked = this.marked(event);
    if (this.carried && !this.isRecorded) {
      await this.record(marked);
      // The person is told now: the stream's later events (and their hops' input) say so.
      if (this.carried.disclosure !== undefined) {
        this.plan.input.madeBefore = true;
        this.plan.input.willBeMade = false;
      }
    }
    return marked;
  }

  /** The AI-Disclosure header of a marked answer (a stream's is sent before its first event). */
  headers(): Record<string, string> {
    return this.plan.terms.isMarking
      ? { 'ai-disclosure': aiDisclosureHeader(syntheticMarkingOf({ id: this.call.targetId })) }
      : {};
  }

  private async record(message: JsonRpcMessage): Promise<void> {
    this.isRecorded = true;
    const key = conversationKeyOf(this.call, this.contextId);
    const hop = a2aHopOf(this.call, 'RESPONSE', message, this.method);
    await this.disclosures.delivered(hop, this.call.targetId, key, this.carried!, 'A2A');
  }

  private marked(judged: JsonRpcMessage): JsonRpcMessage {
    const result = judged.result;
    if (!isRecord(result)) {
      return judged;
    }
    const wrapper = WRAPPERS.find((key) => isRecord(result[key]));
    const object = wrapper ? (result[wrapper] as Json) : result;
    const carried = this.disclosures.carried(this.plan, {
      id: this.call.targetId,
      name: this.call.route.target.name,
    });
    if (carried.disclosure === undefined && !carried.marking) {
      return judged;
    }
    if (!this.isRecorded) {
      this.carried = carried;
      this.contextId = typeof object.contextId === 'string' ? object.contextId : undefined;
    }
    const metadata = isRecord(object.metadata) ? object.metadata : {};
    const agp = isRecord(metadata.agp) ? metadata.agp : {};
    const withCarried: Json = {
      ...object,
      metadata: {
        ...metadata,
        agp: {
          ...agp,
          ...(carried.disclosure !== undefined
            ? { aiDisclosure: { text: carried.disclosure } }
            : {}),
          ...(carried.marking ? { syntheticContent: carried.marking } : {}),
        },
      },
    };
    return { ...judged, result: wrapper ? { ...result, [wrapper]: withCarried } : withCarried };
  }
}

/** D45 on `/relay/human/{agentId}`: what an answer to a person carries (traffic.md T70–T74). */
@Injectable()
export class PersonDeliveries {
  constructor(
    private readonly directory: TrafficDirectory,
    private readonly disclosures: AiDisclosures,
  ) {}

  /** Undefined for agents' calls and for methods whose answer is no message to the person. */
  async plan(call: A2aCall, request: JsonRpcMessage): Promise<PersonDelivery | undefined> {
    if (!call.user || !SPEAKING_METHODS.has(request.method ?? '')) {
      return undefined;
    }
    const settings = await this.directory.settings(call.tenantId);
    const plan = await this.disclosures.plan(
      call.tenantId,
      disclosureTermsOf(settings),
      conversationKeyOf(call, contextIdOf(request)),
    );
    call.disclosure = plan.input;
    const delivery = new PersonDelivery(call, request.method!, plan, this.disclosures);
    call.toPerson = delivery;
    return delivery;
  }
}

/** D44: the person's conversation with the agent is the A2A `contextId`, else the correlation id. */
function conversationKeyOf(call: A2aCall, contextId: string | undefined): string {
  return `a2a:${call.targetId}:${call.user?.id ?? call.callerId}:${contextId ?? call.correlationId}`;
}

function contextIdOf(request: JsonRpcMessage): string | undefined {
  const params = isRecord(request.params) ? request.params : {};
  const message = isRecord(params.message) ? params.message : {};
  return typeof message.contextId === 'string' ? message.contextId : undefined;
}

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
