import { join } from 'node:path';

import { IConversionOptions, Root, Type } from 'protobufjs';

// `@opentelemetry/otlp-transformer` no longer ships a protobuf root (it serialises requests itself
// and cannot decode them) (A21).
const PROTO_DIR = join(__dirname, '..', '..', '..', 'proto');

const PACKAGE = 'opentelemetry.proto.collector';

function loadRoot(): Root {
  const root = new Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync([
    'opentelemetry/proto/collector/trace/v1/trace_service.proto',
    'opentelemetry/proto/collector/logs/v1/logs_service.proto',
  ]);
  return root;
}

// Loaded once, on first use (also by specs that encode requests).
let types: { traces: Type; logs: Type; tracesResponse: Type; logsResponse: Type } | undefined;

export function otlpTypes(): NonNullable<typeof types> {
  if (!types) {
    const root = loadRoot();
    types = {
      traces: root.lookupType(`${PACKAGE}.trace.v1.ExportTraceServiceRequest`),
      logs: root.lookupType(`${PACKAGE}.logs.v1.ExportLogsServiceRequest`),
      tracesResponse: root.lookupType(`${PACKAGE}.trace.v1.ExportTraceServiceResponse`),
      logsResponse: root.lookupType(`${PACKAGE}.logs.v1.ExportLogsServiceResponse`),
    };
  }
  return types;
}

export type OtlpSignal = 'traces' | 'logs';

// Plain objects in OTLP/JSON's shape (lowerCamelCase names, enums as integers, 64-bit integers as
// strings), so one reader takes both encodings; ids stay bytes (Buffer) here, hex in JSON.
const AS_OBJECT: IConversionOptions = { longs: String, enums: Number, oneofs: false };

/** Decodes a binary protobuf export request; throws on bytes that are not one. */
export function decodeRequest(signal: OtlpSignal, bytes: Uint8Array): Record<string, unknown> {
  const type = otlpTypes()[signal];
  return type.toObject(type.decode(bytes), AS_OBJECT);
}

export interface PartialSuccess {
  rejected: number;
  errorMessage: string;
}

export function encodeResponse(signal: OtlpSignal, partial?: PartialSuccess): Uint8Array {
  const t = otlpTypes();
  const type = signal === 'traces' ? t.tracesResponse : t.logsResponse;
  return type.encode(type.fromObject(responseObject(signal, partial))).finish();
}

/** The export response as OTLP/JSON (the rejected count is an int64, so a string). */
export function responseObject(
  signal: OtlpSignal,
  partial?: PartialSuccess,
): Record<string, unknown> {
  if (!partial) {
    return {};
  }
  const field = signal === 'traces' ? 'rejectedSpans' : 'rejectedLogRecords';
  return {
    partialSuccess: { [field]: String(partial.rejected), errorMessage: partial.errorMessage },
  };
}
