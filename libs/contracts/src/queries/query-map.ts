import { IdentityQuery } from './identity-query';
import { AgentSnapshot, TenantSnapshot, UserSnapshot } from './identity-snapshots';
import {
  ConversationHopsPage,
  ConversationHopsQuery,
  ConversationsPage,
  ConversationsQuery,
} from './conversations';
import { RecordedHopsPage, RecordedHopsQuery } from './recorded-hops';
import { TelemetryExportAnswer, TelemetryExportRequest } from './telemetry-export';

type ContractClass = new () => object;

/** Request-reply between services (issue 30). */
const QUERIES = {
  AGENT_IDENTITY: { owner: 'tenant-auth', request: IdentityQuery, answer: AgentSnapshot },
  USER_IDENTITY: { owner: 'tenant-auth', request: IdentityQuery, answer: UserSnapshot },
  TENANT_IDENTITY: { owner: 'tenant-auth', request: IdentityQuery, answer: TenantSnapshot },
  RECORDED_HOPS: { owner: 'audit', request: RecordedHopsQuery, answer: RecordedHopsPage },
  CONVERSATIONS: { owner: 'audit', request: ConversationsQuery, answer: ConversationsPage },
  CONVERSATION_HOPS: {
    owner: 'audit',
    request: ConversationHopsQuery,
    answer: ConversationHopsPage,
  },
  TELEMETRY_EXPORT: {
    owner: 'audit',
    request: TelemetryExportRequest,
    answer: TelemetryExportAnswer,
  },
} satisfies Record<string, { owner: string; request: ContractClass; answer: ContractClass }>;

export type QueryType = keyof typeof QUERIES;

export type QueryRequest<T extends QueryType> = InstanceType<(typeof QUERIES)[T]['request']>;

export type QueryAnswer<T extends QueryType> = InstanceType<(typeof QUERIES)[T]['answer']> | null;

export const QUERY_TYPES = Object.keys(QUERIES) as QueryType[];

export function isQueryType(value: string): value is QueryType {
  return Object.hasOwn(QUERIES, value);
}

/** The service that answers a query type (named in errors: "tenant-auth did not answer …"). */
export function queryOwnerOf(type: QueryType): string {
  return QUERIES[type].owner;
}

export function queryRequestClassOf(type: QueryType): ContractClass {
  return QUERIES[type].request;
}

export function queryAnswerClassOf(type: QueryType): ContractClass {
  return QUERIES[type].answer;
}
