import { Detector } from '@agp/contracts';

import { CUSTOM_MONITOR } from '../engine/monitors.types';
import { AlertRecord } from './alert.record';

/** How an alert's events name what raised it: a detector, or a custom monitor (issue 17). */
export function sourceOf(
  alert: Pick<AlertRecord, 'detector' | 'monitorId'>,
): { detector: Detector } | { monitorId: string } {
  return alert.detector === CUSTOM_MONITOR
    ? { monitorId: alert.monitorId! }
    : { detector: alert.detector };
}
