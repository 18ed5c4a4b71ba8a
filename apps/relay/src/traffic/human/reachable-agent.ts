/** An agent a person may talk to (D43, traffic.md T61): one of their USER_TO_AGENT subscriptions. */
export interface ReachableAgent {
  id: string;
  name: string;
  description?: string;
  /** Where the person's A2A client posts: `/relay/human/{agentId}`. */
  relayPath: string;
  subscriptionId: string;
}
