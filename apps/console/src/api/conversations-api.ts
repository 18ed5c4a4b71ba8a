import type {
  CatalogEntry,
  ConversationDetailResponse,
  ConversationListResponse,
  PostedMessageResponse,
} from './contracts/relay';
import { Page, api, query } from './client';

/** D57's list filters, as the console's form sets them. */
export interface ConversationFilters {
  agentId?: string;
  userId?: string;
  channelId?: string;
  mcpServerId?: string;
}

export type ChannelKind = 'SLACK' | 'WEBHOOK' | 'WEB';

/** D56's body of a new channel: `config` is the kind's own (secrets write-only). */
export interface NewChannel {
  name: string;
  kind: ChannelKind;
  config: Record<string, unknown>;
}

const CONVERSATIONS = '/relay/v1/conversations';
const CHANNELS = '/relay/v1/channels';

/** Conversations (D44, D57) and the channels people reach agents through (D56). */
export const conversations = {
  list: (filters: ConversationFilters, cursor?: string) =>
    api<ConversationListResponse>(`${CONVERSATIONS}${query({ ...filters, cursor, limit: 50 })}`),
  get: (id: string, cursor?: string) =>
    api<ConversationDetailResponse>(`${CONVERSATIONS}/${id}${query({ cursor, limit: 50 })}`),
  post: (id: string, text: string) =>
    api<PostedMessageResponse>(`${CONVERSATIONS}/${id}/messages`, {
      method: 'POST',
      body: JSON.stringify({ text }),
    }),
  channels: () => api<Page<CatalogEntry>>(`${CHANNELS}${query({ pageSize: 100 })}`),
  createChannel: (body: NewChannel) =>
    api<CatalogEntry>(CHANNELS, { method: 'POST', body: JSON.stringify(body) }),
  deleteChannel: (id: string) => api<void>(`${CHANNELS}/${id}`, { method: 'DELETE' }),
};
