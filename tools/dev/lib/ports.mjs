import { createServer } from 'node:net';

/** True when nothing listens on host:port right now (we can bind it, then let it go at once). */
export function portFree(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Refuses to start when a port the processes would take is in use (another system on this host,
 * most likely), naming the port, its process and the setting that moves it, instead of letting
 * the process crash and restart in a loop.
 */
export async function checkPortsFree(ports, hostOf) {
  const taken = [];
  for (const p of ports) if (!(await portFree(p.port, hostOf(p)))) taken.push(p);
  if (taken.length === 0) return;
  const list = taken.map((p) => `${p.port} (${p.name})`).join(', ');
  const settings = [...new Set(taken.map((p) => p.setting))].join(' and ');
  throw new Error(`port ${list} already in use, by another system on this host perhaps: give this one another ${settings} (see "Two systems on one host" in docs/operations.md)`);
}
