import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';

/**
 * Tracing is on when the standard OTLP endpoint variable is set. Off, the SDK is never imported
 * and every helper here returns at its first line: the API's no-op tracer is not even asked.
 */
export const tracingEnabled = Boolean(process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] || process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);

let stop: (() => Promise<void>) | undefined;

/** Starts the OpenTelemetry Node SDK for this process (`service` unless OTEL_SERVICE_NAME names one). */
export async function startTracing(service: string): Promise<void> {
  if (!tracingEnabled || stop) return;
  const { startSdk } = await import('./tracing-sdk.js');
  stop = await startSdk(service);
}

/** Flushes and stops the SDK: the last spans reach the collector before the process exits. */
export async function stopTracing(): Promise<void> {
  await stop?.();
  stop = undefined;
}

const tracer = () => trace.getTracer('report-moderation');

/** The W3C `traceparent` of the active span, to carry in a job; undefined when tracing is off. */
export function traceparent(): string | undefined {
  if (!tracingEnabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'];
}

/** The context a carried `traceparent` names, for a span's parent or link. */
function contextOf(parent: string | undefined): Context | undefined {
  if (!parent) return undefined;
  const ctx = propagation.extract(ROOT_CONTEXT, { traceparent: parent });
  return trace.getSpanContext(ctx) ? ctx : undefined;
}

export interface SpanOptions {
  kind?: SpanKind;
  /** Ids only (report, case, sanction, queue...): never report text, names, secrets or URLs. */
  attributes?: Attributes;
  /** A carried traceparent to continue; without it, the active span is the parent. */
  parent?: string;
  /** Carried traceparents this span also belongs to (a batched job's requests). */
  links?: (string | undefined)[];
  /**
   * Only as part of a trace being recorded: with no recording span active (outside a request or
   * job, or in one the sampler left out), `fn` runs bare. A store call or Redis command is no trace
   * of its own, and the unsampled requests (most, at a ratio) then pay for no span or context.
   */
  childOnly?: boolean;
}

/** Runs `fn` in a span (ended when it settles, its error recorded); just `fn` when tracing is off. */
export function withSpan<T>(name: string, options: SpanOptions, fn: (span?: Span) => Promise<T>): Promise<T> {
  if (!tracingEnabled) return fn();
  if (options.childOnly && !trace.getSpan(context.active())?.isRecording()) return fn();
  const links: Link[] = [];
  for (const l of options.links ?? []) {
    const sc = trace.getSpanContext(contextOf(l) ?? ROOT_CONTEXT);
    if (sc) links.push({ context: sc });
  }
  const parent = contextOf(options.parent) ?? context.active();
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {}, links }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException({ name: (err as Error)?.name ?? 'Error', message: (err as Error)?.name ?? 'Error' });
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A request's server span: started before routing, entered for the rest of the request, ended with its status. */
export interface ServerSpan {
  enter(next: () => void): void;
  end(status: number): void;
}

/**
 * The span of one HTTP request, continuing the caller's `traceparent` header when it sends one.
 * Its attributes are the method and the route template (`/v1/reports/:id`), never the URL.
 */
export function serverSpan(method: string, route: string, headers: Record<string, string | string[] | undefined>): ServerSpan | undefined {
  if (!tracingEnabled) return undefined;
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(`${method} ${route}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route } }, parent);
  return {
    enter: (next) => context.with(trace.setSpan(parent, span), next),
    end: (status) => {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** Adds ids (a case's, a sanction's) to the active span once they are known. */
export function annotateSpan(attributes: Attributes): void {
  if (tracingEnabled) trace.getActiveSpan()?.setAttributes(attributes);
}

export { SpanKind };
