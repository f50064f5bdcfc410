import { expect, it } from 'vitest';
import { StoreFullError } from '@rm/storage';
import { STORE_FULL_LOG_INTERVAL_MS, StoreFullLog } from './store-full-log.js';

it('says "disk full" at once, then at most once a minute, counting the attempts refused since', () => {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  let now = 1_000;
  const log = new StoreFullLog({ error: ((fields: Record<string, unknown>, message: string) => void lines.push({ fields, message })) as never }, () => now);
  const err = new StoreFullError();
  log.note('intake', err);
  for (let i = 0; i < 500; i++) {
    now += 100;
    log.note('intake', err);
  }
  // 50 s after the first: still one line.
  expect(lines).toHaveLength(1);
  expect(lines[0]!.message).toMatch(/^disk full/);
  expect(lines[0]!.fields).toMatchObject({ queue: 'intake', attemptsRefused: 1 });
  now = 1_000 + STORE_FULL_LOG_INTERVAL_MS;
  log.note('notifications', err);
  expect(lines).toHaveLength(2);
  expect(lines[1]!.fields).toMatchObject({ queue: 'notifications', attemptsRefused: 501 });
});
