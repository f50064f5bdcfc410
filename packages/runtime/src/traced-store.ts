import { recording, SpanKind, tracingEnabled, withSpan } from './tracing.js';

/**
 * The store with a client span around each call (`store <method>`: one transaction or read of
 * either adapter), named by the method and the adapter only, never by arguments (they hold report
 * text and names), within a recorded trace only. With tracing off, the store itself: nothing is wrapped.
 */
export function tracedStore<S extends object & { kind?: string }>(store: S): S {
  if (!tracingEnabled) return store;
  const system = store.kind ?? 'store';
  return new Proxy(store, {
    get(target, method, receiver) {
      const value: unknown = Reflect.get(target, method, receiver);
      if (typeof value !== 'function' || typeof method !== 'string' || method === 'close') return value;
      return (...args: unknown[]) =>
        recording()
          ? withSpan(`store ${method}`, { kind: SpanKind.CLIENT, attributes: { 'db.system.name': system, 'db.operation.name': method } }, async () =>
              (value as (...a: unknown[]) => unknown).apply(target, args),
            )
          : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
}
