import { SchemaDataSourceOptions } from '@agp/database';

import { CreateMessagingTables1763780000000 } from './migrations/1763780000000-CreateMessagingTables';
import { CreateAuditTables1763790000000 } from './migrations/1763790000000-CreateAuditTables';
import { CreateMonitorTables1763800000000 } from './migrations/1763800000000-CreateMonitorTables';
import { CreateGovernanceAndCustomMonitorTables1763801700000 } from './migrations/1763801700000-CreateGovernanceAndCustomMonitorTables';
import { AddMuteExpiryRecorded1763802500000 } from './migrations/1763802500000-AddMuteExpiryRecorded';
import { AddRollupSeriesIndex1763803300000 } from './migrations/1763803300000-AddRollupSeriesIndex';
import { CreateMonitorSeries1763804100000 } from './migrations/1763804100000-CreateMonitorSeries';
import { CreateMonitorSeriesTotals1763804900000 } from './migrations/1763804900000-CreateMonitorSeriesTotals';
import { BackfillMonitorSeriesTotals1763804950000 } from './migrations/1763804950000-BackfillMonitorSeriesTotals';
import { ReplaceTickTablesWithJobRuns1765065600000 } from './migrations/1765065600000-ReplaceTickTablesWithJobRuns';
import { CreateTelemetryTables1765270000000 } from './migrations/1765270000000-CreateTelemetryTables';
import { IndexEventsByTraceId1765270100000 } from './migrations/1765270100000-IndexEventsByTraceId';
import { CreateConversationIndex1765280000000 } from './migrations/1765280000000-CreateConversationIndex';
import { CreateLockedConversationKeysFunction1765600000000 } from './migrations/1765600000000-CreateLockedConversationKeysFunction';
import { AUDIT_SCHEMA } from './tokens';

/** Entities and migrations of the audit schema: shared by the runtime and the migrate command. */
export function auditDataSourceOptions(url: string): SchemaDataSourceOptions {
  return {
    url,
    schema: AUDIT_SCHEMA,
    entities: [],
    migrations: [
      CreateMessagingTables1763780000000,
      CreateAuditTables1763790000000,
      CreateMonitorTables1763800000000,
      CreateGovernanceAndCustomMonitorTables1763801700000,
      AddMuteExpiryRecorded1763802500000,
      AddRollupSeriesIndex1763803300000,
      CreateMonitorSeries1763804100000,
      CreateMonitorSeriesTotals1763804900000,
      BackfillMonitorSeriesTotals1763804950000,
      ReplaceTickTablesWithJobRuns1765065600000,
      CreateTelemetryTables1765270000000,
      IndexEventsByTraceId1765270100000,
      CreateConversationIndex1765280000000,
      CreateLockedConversationKeysFunction1765600000000,
    ],
  };
}
