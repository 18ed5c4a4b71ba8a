// An agent instrumented with OpenTelemetry's own SDK, as a process of its own (the exporters load
// their transport with a dynamic import, which jest's module sandbox does not run). Configured only
// by the standard OTEL_EXPORTER_OTLP_* variables; argv[2] picks the encoding (http/json or
// http/protobuf). Prints the trace id, the child span's id and any failed export as JSON.
import { context, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

interface Exporter<T> {
  export(items: T[], done: (result: ExportResult) => void): void;
}

const encoding = process.argv[2] ?? 'http/json';
const isProto = encoding === 'http/protobuf';
const failures: string[] = [];

/** Notes every export the platform did not take (the exporters themselves only log it). */
function watched<T, E extends Exporter<T>>(exporter: E): E {
  const send = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    send(items, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) {
        failures.push(String(result.error));
      }
      done(result);
    });
  return exporter;
}

async function main(): Promise<void> {
  const resource = resourceFromAttributes({
    'service.name': `support-agent-${encoding}`,
    // What a payload may claim: the platform files it under the token's agent all the same.
    'agp.agent.id': process.env.CLAIMED_AGENT_ID ?? '',
  });
  const spanExporter = isProto ? new ProtoTraceExporter() : new JsonTraceExporter();
  const logExporter = isProto ? new ProtoLogExporter() : new JsonLogExporter();
  const tracerProvider = new NodeTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(watched(spanExporter))],
  });
  // As an application does: the global provider, with Node's context manager and propagators.
  tracerProvider.register();
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new SimpleLogRecordProcessor({ exporter: watched(logExporter) })],
  });
  const tracer = tracerProvider.getTracer('support-agent', '1.0.0');
  const logger = loggerProvider.getLogger('support-agent');
  const ids = tracer.startActiveSpan('invoke_agent support', (root) => {
    root.setAttribute('gen_ai.operation.name', 'invoke_agent');
    const child = tracer.startSpan('execute_tool lookup_order');
    child.setAttribute('gen_ai.tool.name', 'lookup_order');
    logger.emit({
      severityNumber: SeverityNumber.WARN,
      severityText: 'WARN',
      body: 'order lookup was slow',
      context: trace.setSpan(context.active(), child),
    });
    child.end();
    root.end();
    return { traceId: root.spanContext().traceId, childSpanId: child.spanContext().spanId };
  });
  await tracerProvider.forceFlush();
  await loggerProvider.forceFlush();
  await tracerProvider.shutdown();
  await loggerProvider.shutdown();
  process.stdout.write(JSON.stringify({ ...ids, failures }));
}

main().catch((error: unknown) => {
  process.stderr.write(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
