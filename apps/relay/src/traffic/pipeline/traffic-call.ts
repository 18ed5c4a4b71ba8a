import { IncomingHttpHeaders } from 'node:http';

import { HttpProblem } from '@agp/http';
import { isUUID } from 'class-validator';

import { Durability } from '../../traffic-settings/traffic-settings.types';
import { CallTrace } from '../tracing/call-trace';
import { TrafficDirectory } from './traffic-directory';
import { EvaluationDrive, TrafficCaller } from './traffic-intake';

/** D34: the header a resend names its hold by. */
export const HITL_HEADER = 'x-agp-hitl-request-id';

export interface CallBasis<Route> {
  tenantId: string;
  correlationId: string;
  route: Route;
  captureContent: boolean;
  /** D34: how long a held message's sender waits, and how long the hold stays decidable. */
  hitl: { waitSeconds: number; expirySeconds: number };
  /** T52: when a delivered request's records must be durable (the tenant's setting). */
  durability: Durability;
  signal?: AbortSignal;
  /** D46, T89: the W3C trace context the caller sent, and what goes upstream. */
  trace: CallTrace;
  /** G16: the call is a LIVE evaluation's, driven in this process. */
  evaluation?: EvaluationDrive;
}

/** Route and settings read together; 404 `missing` when the tenant has no route. */
export async function callBasisOf<Route>(
  directory: TrafficDirectory,
  caller: TrafficCaller,
  findRoute: Promise<Route | undefined>,
  missing: string,
): Promise<CallBasis<Route>> {
  const [route, settings] = await Promise.all([findRoute, directory.settings(caller.tenantId)]);
  if (!route) {
    throw HttpProblem.notFound(missing);
  }
  return {
    tenantId: caller.tenantId,
    correlationId: caller.correlationId,
    route,
    captureContent: settings.contentCapture,
    // G18: a LIVE evaluation records a hold as HELD and never waits for a person.
    hitl: {
      waitSeconds: caller.evaluation ? 0 : settings.hitlWaitSeconds,
      expirySeconds: settings.hitlExpirySeconds,
    },
    durability: settings.durability,
    ...(caller.signal ? { signal: caller.signal } : {}),
    ...(caller.evaluation ? { evaluation: caller.evaluation } : {}),
    trace: CallTrace.of(caller.headers),
  };
}

/** D34, D12: a non-UUID value is `invalid`. */
export function resendHoldOf(
  headers: IncomingHttpHeaders,
  invalid: () => Error = () =>
    HttpProblem.validation([{ field: HITL_HEADER, message: 'must be a UUID' }]),
): string | undefined {
  const value = headers[HITL_HEADER];
  if (value === undefined) {
    return undefined;
  }
  const id = String(value);
  if (!isUUID(id)) {
    throw invalid();
  }
  return id;
}

/** D34: what a hop of `call` is held under: its resend digest, the tenant's waits, the caller. */
export function holdTermsOf(
  call: Pick<CallBasis<unknown>, 'hitl' | 'signal'>,
  resendDigest: string,
): { resendDigest: string; hitl: CallBasis<unknown>['hitl']; signal?: AbortSignal } {
  return { resendDigest, hitl: call.hitl, ...(call.signal ? { signal: call.signal } : {}) };
}
