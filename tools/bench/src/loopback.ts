/** Load is only ever sent to this machine unless the operator says otherwise. */
export function assertLoopback(url: string, allowRemote: boolean): URL {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (!loopback && !allowRemote) {
    throw new Error(`refusing to send load to ${host}: only loopback addresses unless --allow-remote is given`);
  }
  return parsed;
}
