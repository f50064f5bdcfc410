import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

/**
 * A context active for the synchronous extent of `with` only, kept on a stack: no async hooks.
 * On Node 20, AsyncLocalStorage (the SDK's default) turns on promise hooks for the whole process
 * once any span is entered, which cost the gateway's check a fifth of its rate at 10 % sampling
 * (decisions.md). The gateway keeps each request's context on the request and enters it where it
 * acts (its handler's first steps, the jobs it adds); the workers keep AsyncLocalStorage.
 */
export class SyncContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;

  active(): Context {
    return this.current;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const previous = this.current;
    this.current = context;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }

  bind<T>(_context: Context, target: T): T {
    return target;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}
