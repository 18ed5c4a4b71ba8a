import { IdentityQuery } from './identity-query';
import { AgentSnapshot, TenantSnapshot, UserSnapshot } from './identity-snapshots';
import { RecordedHopsPage, RecordedHopsQuery } from './recorded-hops';

type ContractClass = new () => object;

/**
 * Request-reply between services (issue 30): each query type once, with the service that answers
 * it, the class of its request and the class of its answer. Like the event map, one table types
 * both `ask` and `answer`, so a call site cannot send the wrong request or expect the wrong answer.
 */
const QUERIES = {
  AGENT_IDENTITY: { owner: 'tenant-auth', request: IdentityQuery, answer: AgentSnapshot },
  USER_IDENTITY: { owner: 'tenant-auth', request: IdentityQuery, answer: UserSnapshot },
  TENANT_IDENTITY: { owner: 'tenant-auth', request: IdentityQuery, answer: TenantSnapshot },
  RECORDED_HOPS: { owner: 'audit', request: RecordedHopsQuery, answer: RecordedHopsPage },
} satisfies Record<string, { owner: string; request: ContractClass; answer: ContractClass }>;

export type QueryType = keyof typeof QUERIES;

export type QueryRequest<T extends QueryType> = InstanceType<(typeof QUERIES)[T]['request']>;

/** The owner's answer; `null` when it has no such entry (in the asking tenant). */
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
