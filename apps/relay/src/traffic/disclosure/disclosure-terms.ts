import { ChannelSettings } from '../../channels/channel-config';
import { DisclosureInput } from '../../decisions/decision.types';
import { AiDisclosureMode, TrafficSettings } from '../../traffic-settings/traffic-settings.types';

/** traffic.md T70: the words a person reads when the tenant sets none. */
export const DEFAULT_DISCLOSURE_TEXT = 'You are talking to an AI agent, not a person.';

/** IPTC's digital source type for content a trained model made (C2PA uses the same code). */
export const AI_DIGITAL_SOURCE_TYPE =
  'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

/** Methods whose answer is the agent speaking to the person (A2A 0.3 and 1.0 names). */
export const SPEAKING_METHODS: ReadonlySet<string> = new Set([
  'message/send',
  'SendMessage',
  'message/stream',
  'SendStreamingMessage',
]);

/** What a delivery to a person carries: disclosure and marking as the tenant or channel set them. */
export interface DisclosureTerms {
  mode: AiDisclosureMode;
  text: string;
  isMarking: boolean;
}

/** traffic.md T72: the machine-readable marking, in the vocabulary of the AI-Disclosure draft. */
export interface SyntheticMarking {
  aiGenerated: true;
  /** draft-abaris-aicdh's `mode`: the agent wrote the content. */
  mode: 'ai-originated';
  digitalSourceType: typeof AI_DIGITAL_SOURCE_TYPE;
  generator: { type: 'AGENT'; id: string; name?: string };
  markedAt: string;
}

/** CH14: a channel's own setting wins over the tenant's, field by field. */
export function disclosureTermsOf(
  tenant: Pick<TrafficSettings, 'aiDisclosure' | 'aiDisclosureText' | 'contentMarking'>,
  channel?: ChannelSettings,
): DisclosureTerms {
  return {
    mode: channel?.aiDisclosure ?? tenant.aiDisclosure,
    text: channel?.aiDisclosureText ?? tenant.aiDisclosureText ?? DEFAULT_DISCLOSURE_TEXT,
    isMarking: (channel?.contentMarking ?? tenant.contentMarking) === 'ON',
  };
}

export function disclosureInputOf(terms: DisclosureTerms, madeBefore: boolean): DisclosureInput {
  return {
    mode: terms.mode,
    madeBefore,
    willBeMade: terms.mode === 'EVERY_MESSAGE' || (terms.mode === 'FIRST_MESSAGE' && !madeBefore),
    contentMarking: terms.isMarking,
  };
}

export function syntheticMarkingOf(
  agent: { id: string; name?: string },
  at: Date = new Date(),
): SyntheticMarking {
  return {
    aiGenerated: true,
    mode: 'ai-originated',
    digitalSourceType: AI_DIGITAL_SOURCE_TYPE,
    generator: { type: 'AGENT', id: agent.id, ...(agent.name ? { name: agent.name } : {}) },
    markedAt: at.toISOString(),
  };
}

/** The `AI-Disclosure` header (draft-abaris-aicdh, an RFC 9651 dictionary) of a marked answer. */
export function aiDisclosureHeader(marking: SyntheticMarking): string {
  const seconds = Math.floor(Date.parse(marking.markedAt) / 1000);
  return `mode=${marking.mode}, date=@${seconds}`;
}
