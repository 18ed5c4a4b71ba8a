// An agent instrumented with OpenTelemetry's NodeSDK (`@opentelemetry/sdk-node`), as a process of
// its own, configured by the standard OTEL_EXPORTER_OTLP_* variables; argv[2] picks the encoding
// (http/json or http/protobuf). Inside its `execute_tool` span it calls a tool through the relay
// with the official MCP client, the span's `traceparent` on each request (W3C propagation, as the
// SDK's fetch instrumentation would add it). Prints the ids and any failed export as JSON.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { context, propagation, trace } from '@opentelemetry/api';
import { SeverityNumber, logs } from '@opentelemetry/api-logs';
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

interface Exporter<T> {
  export(items: T[], done: (result: ExportResult) => void): void;
}

const encoding = process.argv[2] ?? 'http/json';
const isProto = encoding === 'http/protobuf';
const failures: string[] = [];

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

async function callTool(): Promise<string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${process.env.AGENT_MCP_TOKEN}`,
  };
  propagation.inject(context.active(), headers);
  const client = new Client({ name: 'support-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(process.env.MCP_URL!), { requestInit: { headers } }),
  );
  const result = await client.callTool({
    name: 'lookup_customer',
    arguments: { customerId: 'c-1' },
  });
  await client.close();
  return JSON.stringify(result.content);
}

async function main(): Promise<void> {
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': `mcp-agent-${encoding}` }),
    spanProcessors: [
      new SimpleSpanProcessor(
        watched(isProto ? new ProtoTraceExporter() : new JsonTraceExporter()),
      ),
    ],
    logRecordProcessors: [
      new SimpleLogRecordProcessor({
        exporter: watched(isProto ? new ProtoLogExporter() : new JsonLogExporter()),
      }),
    ],
    instrumentations: [],
  });
  sdk.start();
  const tracer = trace.getTracer('support-agent', '1.0.0');
  const logger = logs.getLogger('support-agent');
  const ids = await tracer.startActiveSpan('invoke_agent support', async (root) => {
    root.setAttribute('gen_ai.operation.name', 'invoke_agent');
    const toolSpanId = await tracer.startActiveSpan(
      'execute_tool lookup_customer',
      async (span) => {
        span.setAttribute('gen_ai.tool.name', 'lookup_customer');
        const answer = await callTool();
        logger.emit({ severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: answer });
        span.end();
        return span.spanContext().spanId;
      },
    );
    root.end();
    return { traceId: root.spanContext().traceId, toolSpanId };
  });
  await sdk.shutdown();
  process.stdout.write(JSON.stringify({ ...ids, failures }));
}

main().catch((error: unknown) => {
  process.stderr.write(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
