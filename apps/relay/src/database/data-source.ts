import { SchemaDataSourceOptions } from '@agp/database';

import { CreateMessagingTables1763780000000 } from './migrations/1763780000000-CreateMessagingTables';
import { CreateRegistryTables1763790000000 } from './migrations/1763790000000-CreateRegistryTables';
import { CreatePolicyTables1763790100000 } from './migrations/1763790100000-CreatePolicyTables';
import { CreateEvaluationPackTables1763790200000 } from './migrations/1763790200000-CreateEvaluationPackTables';
import { CreateTenantsTable1763790300000 } from './migrations/1763790300000-CreateTenantsTable';
import { CreateTrafficTables1763790400000 } from './migrations/1763790400000-CreateTrafficTables';
import { CreateHitlRequestsTable1763790500000 } from './migrations/1763790500000-CreateHitlRequestsTable';
import { AddPolicyVersionTests1763790600000 } from './migrations/1763790600000-AddPolicyVersionTests';
import { AddAgentA2aColumns1763790650000 } from './migrations/1763790650000-AddAgentA2aColumns';
import { CreateLlmProvidersTable1763790700000 } from './migrations/1763790700000-CreateLlmProvidersTable';
import { MoveLlmGatewayUpstreamsToProviders1763790710000 } from './migrations/1763790710000-MoveLlmGatewayUpstreamsToProviders';
import { CreateWebhookTables1763791400000 } from './migrations/1763791400000-CreateWebhookTables';
import { CreateGovernanceTables1763791700000 } from './migrations/1763791700000-CreateGovernanceTables';
import { CreateA2aPushConfigs1763792600000 } from './migrations/1763792600000-CreateA2aPushConfigs';
import { AddProjectionRevisions1765000000000 } from './migrations/1765000000000-AddProjectionRevisions';
import { CreateJobRunsTable1765065600000 } from './migrations/1765065600000-CreateJobRunsTable';
import { CreateA2aHeldPushes1765100000000 } from './migrations/1765100000000-CreateA2aHeldPushes';
import { AddTrafficDurability1765200000000 } from './migrations/1765200000000-AddTrafficDurability';
import { CreateChannelTraffic1765310000000 } from './migrations/1765310000000-CreateChannelTraffic';
import { AddShadowBindingsAndReplays1765320000000 } from './migrations/1765320000000-AddShadowBindingsAndReplays';
import { CreateMcpToolDefinitions1765330000000 } from './migrations/1765330000000-CreateMcpToolDefinitions';
import { CreateNotificationTables1765340000000 } from './migrations/1765340000000-CreateNotificationTables';
import { AddAiDisclosure1765360000000 } from './migrations/1765360000000-AddAiDisclosure';
import { CreateDetectionPatterns1765370000000 } from './migrations/1765370000000-CreateDetectionPatterns';
import { AddVirtualMcpServers1765380000000 } from './migrations/1765380000000-AddVirtualMcpServers';
import { AddChannelEventTrace1765390000000 } from './migrations/1765390000000-AddChannelEventTrace';
import { AddEvaluationPackSchedules1765396000000 } from './migrations/1765396000000-AddEvaluationPackSchedules';
import { CreateDiscoveryEntries1765400000000 } from './migrations/1765400000000-CreateDiscoveryEntries';
import { CreateMarketplace1765410000000 } from './migrations/1765410000000-CreateMarketplace';
import { AddX402Payments1765420000000 } from './migrations/1765420000000-AddX402Payments';
import { CreateSpendTables1765430000000 } from './migrations/1765430000000-CreateSpendTables';
import { AddEvaluationPackLiveDoubles1765450000000 } from './migrations/1765450000000-AddEvaluationPackLiveDoubles';
import { CreateMcpToolRelists1765470000000 } from './migrations/1765470000000-CreateMcpToolRelists';
import { AddWebhookSetAt1765480000000 } from './migrations/1765480000000-AddWebhookSetAt';
import { SearchListingsLikeDiscovery1765500000000 } from './migrations/1765500000000-SearchListingsLikeDiscovery';
import { CreateMcpInputMailbox1765520000000 } from './migrations/1765520000000-CreateMcpInputMailbox';
import { AddPushConfigActivity1765530000000 } from './migrations/1765530000000-AddPushConfigActivity';
import { CreateSpendHours1765540000000 } from './migrations/1765540000000-CreateSpendHours';
import { RELAY_SCHEMA } from './tokens';

/** R2: repositories use parameterised SQL on the transaction, so no entity classes. */
export function relayDataSourceOptions(url: string): SchemaDataSourceOptions {
  return {
    url,
    schema: RELAY_SCHEMA,
    entities: [],
    migrations: [
      CreateMessagingTables1763780000000,
      CreateRegistryTables1763790000000,
      CreatePolicyTables1763790100000,
      CreateEvaluationPackTables1763790200000,
      CreateTenantsTable1763790300000,
      CreateTrafficTables1763790400000,
      CreateHitlRequestsTable1763790500000,
      AddPolicyVersionTests1763790600000,
      AddAgentA2aColumns1763790650000,
      CreateLlmProvidersTable1763790700000,
      MoveLlmGatewayUpstreamsToProviders1763790710000,
      CreateWebhookTables1763791400000,
      CreateGovernanceTables1763791700000,
      CreateA2aPushConfigs1763792600000,
      AddProjectionRevisions1765000000000,
      CreateJobRunsTable1765065600000,
      CreateA2aHeldPushes1765100000000,
      AddTrafficDurability1765200000000,
      CreateChannelTraffic1765310000000,
      AddShadowBindingsAndReplays1765320000000,
      CreateMcpToolDefinitions1765330000000,
      CreateNotificationTables1765340000000,
      AddAiDisclosure1765360000000,
      CreateDetectionPatterns1765370000000,
      AddVirtualMcpServers1765380000000,
      AddChannelEventTrace1765390000000,
      AddEvaluationPackSchedules1765396000000,
      CreateDiscoveryEntries1765400000000,
      CreateMarketplace1765410000000,
      AddX402Payments1765420000000,
      CreateSpendTables1765430000000,
      AddEvaluationPackLiveDoubles1765450000000,
      CreateMcpToolRelists1765470000000,
      AddWebhookSetAt1765480000000,
      SearchListingsLikeDiscovery1765500000000,
      CreateMcpInputMailbox1765520000000,
      AddPushConfigActivity1765530000000,
      CreateSpendHours1765540000000,
    ],
  };
}
