// How many of each process `npm start` runs: `--gateways N` and
// `--workers intake=N,moderation=N,notification=N,evidence=N`, or GATEWAYS / WORKERS in the environment.

const WORKERS = { intake: 'intake-worker', moderation: 'moderation-worker', notification: 'notification-worker', evidence: 'evidence-worker' };
const METRICS_BASE = { 'intake-worker': 9101, 'moderation-worker': 9102, 'notification-worker': 9103, 'evidence-worker': 9104 };

function count(value, what) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 32) throw new Error(`${what} must be a whole number from 0 to 32 (got ${value})`);
  return n;
}

/** Parses the flags (or the environment); throws with a clear message on anything else. */
export function parseTopology(argv, env) {
  const counts = { gateway: 1, 'intake-worker': 1, 'moderation-worker': 1, 'notification-worker': 1, 'evidence-worker': 1 };
  let gateways = env.GATEWAYS;
  let workers = env.WORKERS;
  for (let i = 0; i < argv.length; i++) {
    // `--flag value` or `--flag=value`
    const eq = argv[i].indexOf('=');
    const flag = eq < 0 ? argv[i] : argv[i].slice(0, eq);
    const value = eq < 0 ? argv[++i] : argv[i].slice(eq + 1);
    if (flag === '--gateways') gateways = value;
    else if (flag === '--workers') workers = value;
    else throw new Error(`unknown option ${flag}: use --gateways N and --workers intake=N,moderation=N,notification=N,evidence=N`);
  }
  if (gateways !== undefined) counts.gateway = count(gateways, '--gateways');
  if (counts.gateway < 1) throw new Error('--gateways must be at least 1');
  for (const part of (workers ?? '').split(',').filter(Boolean)) {
    const [kind, n] = part.split('=');
    if (!WORKERS[kind] || n === undefined) throw new Error(`--workers takes intake=N,moderation=N,notification=N,evidence=N (got ${part})`);
    counts[WORKERS[kind]] = count(n, `--workers ${kind}`);
  }
  return counts;
}

/**
 * One entry per process: its name and the environment it needs beside the shared one. Node 20
 * cannot share a port between processes, so gateway i listens on PORT + i (put a load balancer in
 * front); worker i serves its metrics on its base port + 10 × i.
 */
export function instances(counts, basePort) {
  const list = [];
  for (const [app, n] of Object.entries(counts)) {
    for (let i = 0; i < n; i++) {
      const name = n > 1 ? `${app}-${i + 1}` : app;
      const env = app === 'gateway' ? { PORT: String(basePort + i) } : { METRICS_PORT: String(METRICS_BASE[app] + 10 * i) };
      list.push({ app, name, env });
    }
  }
  return list;
}
