import { EventFilterQueryDto } from '../../events/dto/event-filter-query.dto';

/** Operation 6's query (D17): `eventType`, `protocol`, `action`, `from`, `to`; nothing else. */
export class ExportEventsQueryDto extends EventFilterQueryDto {}
