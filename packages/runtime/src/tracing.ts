import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span, type SpanContext, type Tracer, TraceFlags, isSpanContextValid } from '@opentelemetry/api';

/**
 * Tracing is on when the standard OTLP endpoint variable is set. Off, the SDK is never imported
 * and every helper here returns at its first line: the API's no-op tracer is not even asked.
 */
export const tracingEnabled = Boolean(process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] || process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);

let stop: (() => Promise<void>) | undefined;

/**
 * Starts the OpenTelemetry Node SDK for this process (`service` unless OTEL_SERVICE_NAME names one).
 * `asyncContext: false` keeps contexts for synchronous extents only (SyncContextManager): the
 * gateway, which carries each request's context itself (ServerSpan).
 */
export async function startTracing(service: string, options: { asyncContext?: boolean } = {}): Promise<void> {
  if (!tracingEnabled || stop) return;
  const { startSdk } = await import('./tracing-sdk.js');
  stop = await startSdk(service, options.asyncContext ?? true);
  sdkTracer = undefined;
  propagationFields = undefined;
}

/** Flushes and stops the SDK: the last spans reach the collector before the process exits. */
export async function stopTracing(): Promise<void> {
  await stop?.();
  stop = undefined;
}

/** Looked up once the SDK runs (the API's proxy tracer would be asked on every span otherwise). */
let sdkTracer: Tracer | undefined;
const tracer = (): Tracer => (sdkTracer ??= trace.getTracer('report-moderation'));
/** The headers the configured propagators read (traceparent, tracestate, baggage by default). */
let propagationFields: string[] | undefined;

/**
 * Whether a span being recorded is active. A store call or Redis command is a span only then
 * (traced-store.ts, redis-tracing.ts): it is no trace of its own, and the calls of requests and
 * jobs the sampler left out (most, at a ratio) pay for no span, wrapper or context.
 */
export function recording(): boolean {
  return tracingEnabled && trace.getSpan(context.active())?.isRecording() === true;
}

/**
 * A span's W3C traceparent, written directly: a job's `trace` is W3C whatever OTEL_PROPAGATORS
 * chooses for HTTP headers, and a request's costs no propagator round.
 */
function traceparentOf(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags & TraceFlags.SAMPLED ? '01' : '00'}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of the active span, to carry in a job; undefined when tracing is off. */
export function traceparent(): string | undefined {
  if (!tracingEnabled) return undefined;
  const sc = trace.getSpanContext(context.active());
  return sc && isSpanContextValid(sc) ? traceparentOf(sc) : undefined;
}

/**
 * A job's data with a request's `traceparent` in it (`trace`), for a producer without async
 * context (the gateway): the queue (queues.ts) keeps a `trace` it finds, and the consumer's span
 * continues it. Job payloads are parsed with zod, which drops the field.
 */
export function carryingTrace<T extends object>(data: T, trace: string | undefined): T {
  return trace ? { ...data, trace } : data;
}

/** The traceparent `carryingTrace` put in a job's data (or one of its items), if any. */
export function carriedTrace(data: unknown): string | undefined {
  const trace = (data as { trace?: unknown } | null)?.trace;
  return typeof trace === 'string' ? trace : undefined;
}

/** The carried traceparents whose sampled flag is set (W3C: `00-<trace>-<span>-<flags>`). */
export function sampledTraces(traces: (string | undefined)[]): string[] {
  return traces.filter((t): t is string => {
    const m = t === undefined ? null : TRACEPARENT.exec(t);
    return m !== null && (parseInt(m[3]!, 16) & TraceFlags.SAMPLED) !== 0;
  });
}

/**
 * The span of a batch a producer sends (the gateway's intake turn) when any of its requests is
 * sampled: it continues the first sampled one and links them all, so every sampled request
 * reaches the consumer, whose span continues this one (a job added while it is active carries
 * it). A batch of unsampled requests is sent bare.
 */
export function withBatchSpan<T>(name: string, traces: (string | undefined)[], fn: () => Promise<T>): Promise<T> {
  if (!tracingEnabled) return fn();
  const sampled = sampledTraces(traces);
  if (sampled.length === 0) return fn();
  return withSpan(name, { kind: SpanKind.PRODUCER, attributes: { 'messaging.batch.message_count': traces.length }, parent: sampled[0], links: sampled }, fn);
}

/** The context a carried `traceparent` names, for a span's parent or link. */
function contextOf(parent: string | undefined): Context | undefined {
  const m = parent === undefined ? null : TRACEPARENT.exec(parent);
  if (!m) return undefined;
  const sc: SpanContext = { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(sc) ? trace.setSpanContext(ROOT_CONTEXT, sc) : undefined;
}

export interface SpanOptions {
  kind?: SpanKind;
  /** Ids only (report, case, sanction, queue...): never report text, names, secrets or URLs. */
  attributes?: Attributes;
  /** A carried traceparent to continue; without it, the active span is the parent. */
  parent?: string;
  /** Carried traceparents this span also belongs to (a batched job's requests). */
  links?: (string | undefined)[];
}

/** Runs `fn` in a span (ended when it settles, its error recorded); just `fn` when tracing is off. */
export function withSpan<T>(name: string, options: SpanOptions, fn: (span?: Span) => Promise<T>): Promise<T> {
  if (!tracingEnabled) return fn();
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

/**
 * The span of one HTTP request, continuing the caller's `traceparent` header when it sends one.
 * Its attributes are the method and the route template (`/v1/reports/:id`), never the URL. An
 * unsampled request's span is only asked for its traceparent (the sampler's verdict rides with
 * its jobs): it is never entered, given attributes or ended, which would all do nothing.
 */
export class ServerSpan {
  private constructor(
    private readonly parent: Context,
    private readonly span: Span,
  ) {}

  /** The request's span; undefined when tracing is off. */
  static start(method: string, route: string, headers: Record<string, string | string[] | undefined>): ServerSpan | undefined {
    if (!tracingEnabled) return undefined;
    // Most requests carry no trace header: nothing for the propagators to read then.
    const fields = (propagationFields ??= propagation.fields());
    const parent = fields.some((f) => headers[f] !== undefined) ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
    const span = tracer().startSpan(`${method} ${route}`, { kind: SpanKind.SERVER }, parent);
    if (span.isRecording()) span.setAttributes({ 'http.request.method': method, 'http.route': route });
    return new ServerSpan(parent, span);
  }

  /** Runs `fn` with a recorded span active (for `fn`'s synchronous part, in the gateway), so its store and Redis calls are children. */
  run<T>(fn: () => T): T {
    return this.span.isRecording() ? context.with(trace.setSpan(this.parent, this.span), fn) : fn();
  }

  /** The W3C traceparent a job the request adds carries. */
  get traceparent(): string {
    return traceparentOf(this.span.spanContext());
  }

  end(status: number): void {
    if (!this.span.isRecording()) return;
    this.span.setAttribute('http.response.status_code', status);
    if (status >= 500) this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.span.end();
  }
}

/** Adds ids (a case's, a sanction's) to the active span once they are known. */
export function annotateSpan(attributes: Attributes): void {
  if (tracingEnabled) trace.getActiveSpan()?.setAttributes(attributes);
}

export { SpanKind };
