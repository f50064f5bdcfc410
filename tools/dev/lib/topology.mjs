// How many of each process `npm start` runs: `--gateways N` and
// `--workers intake=N,moderation=N,notification=N,evidence=N`, or GATEWAYS / WORKERS in the environment.

const WORKERS = { intake: 'intake-worker', moderation: 'moderation-worker', notification: 'notification-worker', evidence: 'evidence-worker' };
/**
 * A worker's metrics port is METRICS_PORT (the base, default 9101) + its kind's offset + 10 × its
 * instance index: intake 9101, moderation 9102, notification 9103, evidence 9104, a second intake 9111. A new
 * worker kind takes the next offset (at most 9: the tens are the instances).
 */
export const METRICS_OFFSET = { 'intake-worker': 0, 'moderation-worker': 1, 'notification-worker': 2, 'evidence-worker': 3 };
export const DEFAULT_METRICS_BASE = 9101;

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

/** A port setting from the environment: a whole number 0 to 65535, or the fallback when unset. */
export function portSetting(value, name, fallback) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(String(value)) || n > 65535) throw new Error(`${name} must be a port number from 0 to 65535 (got ${value})`);
  return n;
}

/**
 * One entry per process: its name and the environment it needs beside the shared one. Node 20
 * cannot share a port between processes, so gateway i listens on PORT + i (put a load balancer in
 * front); a worker serves its metrics on metricsBase + its kind's offset + 10 × i (METRICS_OFFSET).
 * metricsBase 0 turns every worker's metrics port off, as METRICS_PORT=0 does for one worker.
 */
export function instances(counts, basePort, metricsBase = DEFAULT_METRICS_BASE) {
  const list = [];
  for (const [app, n] of Object.entries(counts)) {
    for (let i = 0; i < n; i++) {
      const name = n > 1 ? `${app}-${i + 1}` : app;
      const port = app === 'gateway' ? basePort + i : metricsBase === 0 ? 0 : metricsBase + METRICS_OFFSET[app] + 10 * i;
      if (port > 65535) throw new Error(`${name} would listen on port ${port}: lower ${app === 'gateway' ? 'PORT' : 'METRICS_PORT'}`);
      list.push({ app, name, env: app === 'gateway' ? { PORT: String(port) } : { METRICS_PORT: String(port) } });
    }
  }
  return list;
}

/** The ports the processes listen on (0 is none), with who takes each: to check them before starting. */
export function listenPorts(list) {
  return list.flatMap(({ name, app, env }) => {
    const port = Number(app === 'gateway' ? env.PORT : env.METRICS_PORT);
    return port > 0 ? [{ name, port, setting: app === 'gateway' ? 'PORT' : 'METRICS_PORT' }] : [];
  });
}
