import { FieldError } from '@agp/http';

import {
  AGGREGATIONS_OF,
  METRIC_KIND,
  aggregationAllowed,
} from '../engine/custom/metric-semantics';
import { MonitorFields } from './custom-monitors.repository';

/** M21: the rules a monitor's fields must satisfy together; each broken one names its field. */
export function monitorProblems(fields: MonitorFields): FieldError[] {
  const errors: FieldError[] = [];
  if (!aggregationAllowed(fields.metric, fields.aggregation)) {
    errors.push({
      field: 'aggregation',
      message: `${fields.metric} takes one of ${AGGREGATIONS_OF[METRIC_KIND[fields.metric]].join(', ')}`,
    });
  }
  if (fields.monitorType === 'OUTLIER' && fields.groupBy === 'NONE') {
    errors.push({
      field: 'groupBy',
      message: 'an OUTLIER monitor compares groups: groupBy must not be NONE',
    });
  }
  if (fields.monitorType !== 'THRESHOLD' && !(fields.threshold > 0)) {
    errors.push({
      field: 'threshold',
      message: `a ${fields.monitorType} monitor's threshold (${fields.monitorType === 'CHANGE' ? 'a percentage' : 'a z-score'}) must be above 0`,
    });
  }
  return errors;
}
