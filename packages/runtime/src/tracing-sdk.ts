// Imported only when tracing is on (tracing.ts): the SDK and its exporter load nothing otherwise.
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { SyncContextManager } from './sync-context.js';

/**
 * The Node SDK with its standard OTEL_* variables (sampler and ratio, resource attributes, batch
 * delays). Traces go over OTLP/HTTP as JSON unless OTEL_EXPORTER_OTLP_PROTOCOL chooses otherwise,
 * in which case the SDK picks the exporter. No automatic instrumentation: the spans are ours,
 * carrying ids and never report text or URLs.
 */
export async function startSdk(service: string, asyncContext: boolean): Promise<() => Promise<void>> {
  const sdk = new NodeSDK({
    ...(!process.env['OTEL_SERVICE_NAME'] && { serviceName: service }),
    ...(!process.env['OTEL_EXPORTER_OTLP_PROTOCOL'] && !process.env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] && { traceExporter: new OTLPTraceExporter() }),
    instrumentations: [],
    // Otherwise AsyncLocalStorage, which Node 20 pays for on every promise (sync-context.ts).
    ...(!asyncContext && { contextManager: new SyncContextManager() }),
  });
  sdk.start();
  return () => sdk.shutdown();
}
