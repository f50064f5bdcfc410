import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { Store } from '@rm/storage';

const CHILD = join(import.meta.dirname, '..', 'test', 'sqlite-store-child.mjs');

interface Reply {
  id?: number;
  ready?: boolean;
  ok?: boolean;
  value?: unknown;
  error?: { name: string; message: string };
}

/**
 * A Store whose every call runs in a child process holding its own handle on `file` (the built
 * adapter), so two of them race as two real processes do. Test support: not part of the build.
 */
export async function openSqliteStoreInChild(file: string): Promise<Store> {
  const child = fork(CHILD, [file], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  let next = 0;
  await new Promise<void>((ready, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`the store process exited (${code}) before it was ready`)));
    child.once('message', () => ready());
  });
  child.on('message', (reply: Reply) => {
    const call = reply.id === undefined ? undefined : pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id!);
    if (reply.ok) call.ok(reply.value);
    else call.fail(Object.assign(new Error(reply.error!.message), { name: reply.error!.name }));
  });
  child.on('exit', () => {
    for (const call of pending.values()) call.fail(new Error('the store process exited'));
    pending.clear();
  });
  const call = (method: string, args: unknown[]) =>
    new Promise((ok, fail) => {
      const id = next++;
      pending.set(id, { ok, fail });
      child.send({ id, method, args });
    });
  return new Proxy({ kind: 'sqlite' } as Store, {
    get: (target, method) => (method === 'kind' ? target.kind : typeof method === 'string' && method !== 'then' ? (...args: unknown[]) => call(method, args) : undefined),
  });
}
