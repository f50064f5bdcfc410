import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { QUEUES, SANCTIONS_API_LIMITS, type QueueKey } from '@rm/contracts';
import { commonConfig, configVariables, createRedis, loadConfig, openQueue, SHARED_STORAGE_VARIABLES, SHUTDOWN_GRACE_MS, type Redis } from '@rm/runtime';
import { freePort, killOnExit, redisUrl, ROOT } from './harness.js';

// deploy/kubernetes, checked without a cluster: both overlays rendered by `kubectl kustomize`,
// every object validated against its schema, and the Deployments held against the processes they
// run (their variables, ports, probe paths, queues), started here for real.

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [k: string]: any };

function findKubectl(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

const kubectl = findKubectl();
if (!kubectl) console.log('kubernetes.test.ts: skipped, kubectl is not installed (the manifests in deploy/kubernetes were not rendered)');

const KUSTOMIZE = join(ROOT, 'deploy/kubernetes');

function render(overlay: 'dev' | 'prod' | { components: string[] }): K8sObject[] {
  let dir = join(KUSTOMIZE, 'overlays', typeof overlay === 'string' ? overlay : 'prod');
  if (typeof overlay !== 'string') {
    // prod with components added, as an operator adds them: kustomize takes only relative paths.
    dir = mkdtempSync(join(tmpdir(), 'rm-k8s-overlay-'));
    const rel = (path: string) => relative(dir, join(KUSTOMIZE, path));
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [${rel('overlays/prod')}]\ncomponents: [${overlay.components.map(rel).join(', ')}]\n`,
    );
  }
  let out: string;
  try {
    out = execFileSync(kubectl!, ['kustomize', dir], { encoding: 'utf8' });
  } finally {
    if (typeof overlay !== 'string') rmSync(dir, { recursive: true, force: true });
  }
  const objects = parseAllDocuments(out).map((d) => d.toJS() as K8sObject);
  // kustomize folds long base64 Secret values over lines; the API server's decoder skips the line
  // breaks, the schema's base64 pattern does not: read them as the API server does.
  for (const o of objects) if (o.kind === 'Secret') for (const [k, v] of Object.entries(o['data'] ?? {})) o['data'][k] = String(v).replace(/\s+/g, '');
  return objects;
}

/** The model class of an object's apiVersion and kind, from kubernetes-models or its CRD packages; undefined when none has it. */
async function modelOf(o: K8sObject): Promise<(new (data: unknown) => { validate(): void }) | undefined> {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  const pkg = group === 'keda.sh' ? '@kubernetes-models/keda' : group === 'monitoring.coreos.com' ? '@kubernetes-models/prometheus-operator' : 'kubernetes-models';
  const mod = (await import(`${pkg}/${group ? `${group}/` : ''}${version}`)) as Record<string, any>;
  return mod[o.kind];
}

const podSpecOf = (o: K8sObject) => o['spec']?.template?.spec;
/** Everything that runs pods: the Deployments, dev's StatefulSets, the migrate Job. */
const workloads = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet' || o.kind === 'Job');
const named = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
/** Whether a NetworkPolicy's podSelector selects pods with these labels. */
const selects = (p: K8sObject, labels: Record<string, string>) => {
  const sel = p['spec'].podSelector;
  return Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v) && (sel.matchExpressions ?? []).every((e: any) => e.operator === 'In' && e.values.includes(labels[e.key]));
};

/** A Deployment of one of our processes: its container runs `node ... apps/<app>/dist/main.js`. */
interface AppDeployment {
  name: string;
  entry: string;
  container: any;
  schema: any;
  env: Record<string, string>;
}

/** The app Deployments of a render, each with the config schema its process parses (from its own dist/config.js). */
async function appDeployments(objects: K8sObject[]): Promise<AppDeployment[]> {
  const apps: AppDeployment[] = [];
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const container = podSpecOf(d).containers[0];
    const entry = (container.command as string[]).find((a) => /^apps\/[^/]+\/dist\/main\.js$/.test(a));
    if (!entry) continue;
    const mod = (await import(pathToFileURL(join(ROOT, dirname(entry), 'config.js')).href)) as Record<string, any>;
    // The app's config module exports its schema: the one zod object among its exports.
    const schemas = Object.values(mod).filter((v) => v && typeof v === 'object' && typeof v.safeParse === 'function' && v.shape);
    expect(schemas, `${entry}: one config schema exported`).toHaveLength(1);
    const env: Record<string, string> = {};
    for (const e of container.env ?? []) if (typeof e.value === 'string') env[e.name] = e.value;
    apps.push({ name: d.metadata.name, entry, container, schema: schemas[0], env });
  }
  return apps;
}

/** The container port a probe or Service names (by name or number). */
function containerPort(container: any, port: string | number): number | undefined {
  if (typeof port === 'number') return port;
  return (container.ports as { name: string; containerPort: number }[]).find((p) => p.name === port)?.containerPort;
}

/** The variable holding the port a process listens on: the gateway's PORT, a worker's METRICS_PORT. */
const portVariable = (schema: any) => (configVariables(schema).includes('PORT') ? 'PORT' : 'METRICS_PORT');

describe.skipIf(!kubectl)('deploy/kubernetes', () => {
  let dev: K8sObject[];
  let prod: K8sObject[];
  let devApps: AppDeployment[];
  let policyDir: string;
  /** Per app Deployment, what its process did when started with its manifest's settings. */
  const observed = new Map<string, { probes: Record<string, number>; metrics: number; consumes: QueueKey[] }>();
  const started: ChildProcess[] = [];
  let redis: Redis;
  const dataDir = mkdtempSync(join(tmpdir(), 'rm-k8s-'));

  /** Writes the ConfigMap-mounted files of a container under `root`, and returns the env with paths into them. */
  function withMountedFiles(objects: K8sObject[], deployment: AppDeployment, root: string): Record<string, string> {
    const pod = podSpecOf(named(objects, 'Deployment', deployment.name)!);
    const env = { ...deployment.env };
    for (const mount of deployment.container.volumeMounts ?? []) {
      const volume = pod.volumes.find((v: any) => v.name === mount.name);
      if (!volume?.configMap) continue;
      const cm = named(objects, 'ConfigMap', volume.configMap.name);
      expect(cm, `ConfigMap ${volume.configMap.name}`).toBeDefined();
      for (const [file, text] of Object.entries(cm!['data'] as Record<string, string>)) {
        mkdirSync(join(root, mount.mountPath), { recursive: true });
        writeFileSync(join(root, mount.mountPath, file), text);
      }
      for (const [k, v] of Object.entries(env)) if (v.startsWith(`${mount.mountPath}/`)) env[k] = join(root, v);
    }
    return env;
  }

  beforeAll(async () => {
    dev = render('dev');
    prod = render('prod');
    devApps = await appDeployments(dev);
    policyDir = mkdtempSync(join(tmpdir(), 'rm-k8s-files-'));
    redis = createRedis(loadConfig(commonConfig, { REDIS_URL: redisUrl() }));
    // Each process as its Deployment runs it: its command and its literal settings, with only
    // where Redis is, the store (SQLite here: no MongoDB on this machine), the prefix and the
    // listening port/host replaced, so it can run beside the other tests.
    await Promise.all(
      devApps.map(async (app) => {
        const prefix = `k8s${randomBytes(3).toString('hex')}`;
        const port = await freePort();
        const env = withMountedFiles(dev, app, policyDir);
        const child = killOnExit(
          spawn(process.execPath, (app.container.command as string[]).slice(1), {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
            env: {
              PATH: process.env['PATH'],
              ...env,
              REDIS_URL: redisUrl(),
              DATA_DIR: join(dataDir, app.name),
              KEY_PREFIX: prefix,
              LOG_LEVEL: 'warn',
              [portVariable(app.schema)]: String(port),
              HOST: '127.0.0.1',
              METRICS_HOST: '127.0.0.1',
            },
          }),
        );
        started.push(child);
        let output = '';
        child.stderr!.on('data', (d) => (output += d));
        const probes: Record<string, number> = {};
        const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.status, () => 0);
        const sleep = () => new Promise((r) => setTimeout(r, 100));
        // Listening first (any answer at all)...
        const deadline = Date.now() + 30_000;
        while ((await get('/')) === 0) {
          if (child.exitCode !== null) throw new Error(`${app.entry} exited: ${output}`);
          if (Date.now() > deadline) throw new Error(`${app.entry} never listened on its ${portVariable(app.schema)}: ${output}`);
          await sleep();
        }
        // ...then ready once Redis and the store answer; a wrong readiness path shows in the probe test, not here.
        const readinessPath = app.container.readinessProbe?.httpGet?.path ?? '/ready';
        const readyBy = Date.now() + 10_000;
        while ((await get(readinessPath)) !== 200 && Date.now() < readyBy) await sleep();
        for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
          const path = app.container[probe]?.httpGet?.path;
          if (path) probes[probe] = await get(path);
        }
        // The queues it consumes: those on which it registered a BullMQ worker. A worker (it
        // declares JOB_LOCK_MS) registers them after its ops port is up: read until the set stands.
        const queues = (Object.keys(QUEUES) as QueueKey[]).map((key) => ({ key, queue: openQueue(key, redis, prefix) }));
        const consumed = async () => {
          const found: QueueKey[] = [];
          for (const { key, queue } of queues) if ((await queue.getWorkers()).length > 0) found.push(key);
          return found.join(',');
        };
        let consumes = await consumed();
        if (configVariables(app.schema).includes('JOB_LOCK_MS')) {
          for (let previous = ''; consumes === '' || consumes !== previous; ) {
            if (Date.now() > deadline) throw new Error(`${app.entry} registered no BullMQ worker: ${output}`);
            previous = consumes;
            await new Promise((r) => setTimeout(r, 300));
            consumes = await consumed();
          }
        }
        for (const { queue } of queues) await queue.close();
        observed.set(app.name, { probes, metrics: await get('/metrics'), consumes: consumes === '' ? [] : (consumes.split(',') as QueueKey[]) });
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      started.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        return new Promise((ok) => {
          child.once('exit', ok);
          child.kill('SIGTERM');
        });
      }),
    );
    redis?.disconnect();
    for (const dir of [dataDir, policyDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('both overlays render, and every object validates against the Kubernetes, KEDA or Prometheus operator schema', async () => {
    for (const [overlay, objects] of [['dev', dev], ['prod', prod]] as const) {
      expect(objects.length, overlay).toBeGreaterThan(10);
      for (const o of objects) {
        const Model = await modelOf(o);
        expect(Model, `${overlay}: a schema for ${o.apiVersion} ${o.kind}`).toBeDefined();
        expect(() => new Model!(o).validate(), `${overlay}: ${o.kind}/${o.metadata.name}`).not.toThrow();
      }
      const kinds = new Set(objects.map((o) => o.kind));
      for (const kind of ['Deployment', 'Service', 'Ingress', 'HorizontalPodAutoscaler', 'ScaledObject', 'TriggerAuthentication', 'ServiceMonitor', 'PrometheusRule', 'ConfigMap']) {
        expect(kinds.has(kind), `${overlay} has a ${kind}`).toBe(true);
      }
    }
  });

  it('a validation failure is caught: a port that is not a number fails the schema', async () => {
    const deployment = structuredClone(named(dev, 'Deployment', 'gateway')!);
    podSpecOf(deployment).containers[0].ports[0].containerPort = 'http';
    const Model = await modelOf(deployment);
    expect(() => new Model!(deployment).validate()).toThrow(/containerPort/);
  });

  it('runs the gateway and every worker of the code, each as its own Deployment', async () => {
    const { readdirSync, existsSync } = await import('node:fs');
    const processes = readdirSync(join(ROOT, 'apps')).filter((a) => existsSync(join(ROOT, 'apps', a, 'src/main.ts')) && (a === 'gateway' || a.endsWith('-worker')));
    for (const objects of [dev, prod]) {
      const apps = await appDeployments(objects);
      expect(apps.map((a) => a.entry).sort()).toEqual(processes.map((a) => `apps/${a}/dist/main.js`).sort());
    }
  });

  it('puts the security settings on every pod, and gives every container requests and limits', () => {
    for (const objects of [dev, prod]) {
      for (const w of workloads(objects)) {
        const pod = podSpecOf(w);
        const what = `${w.kind}/${w.metadata.name}`;
        expect(pod.automountServiceAccountToken, what).toBe(false);
        expect(pod.securityContext?.runAsNonRoot, what).toBe(true);
        expect(pod.securityContext?.runAsUser, what).toBeGreaterThan(0);
        expect(pod.securityContext?.seccompProfile?.type, what).toBe('RuntimeDefault');
        for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
          expect(c.securityContext?.allowPrivilegeEscalation, `${what} ${c.name}`).toBe(false);
          expect(c.securityContext?.readOnlyRootFilesystem, `${what} ${c.name}`).toBe(true);
          expect(c.securityContext?.capabilities?.drop, `${what} ${c.name}`).toContain('ALL');
          for (const kind of ['requests', 'limits']) for (const r of ['cpu', 'memory']) expect(c.resources?.[kind]?.[r], `${what} ${c.name} ${kind}.${r}`).toBeDefined();
        }
      }
    }
  });

  it('gives every app pod a writable /tmp, longer to stop than the processes drain, and the triage policy from a ConfigMap where its process reads one', () => {
    for (const objects of [dev, prod]) {
      for (const d of objects.filter((o) => o.kind === 'Deployment')) {
        const pod = podSpecOf(d);
        const tmp = pod.containers[0].volumeMounts.find((m: any) => m.mountPath === '/tmp');
        expect(pod.volumes.find((v: any) => v.name === tmp?.name)?.emptyDir, d.metadata.name).toBeDefined();
        const preStopSeconds = Number(pod.containers[0].lifecycle?.preStop?.exec?.command?.[1] ?? 0);
        expect(pod.terminationGracePeriodSeconds * 1000, d.metadata.name).toBeGreaterThan(SHUTDOWN_GRACE_MS + preStopSeconds * 1000);
        const app = devApps.find((a) => a.name === d.metadata.name);
        // A process whose config has no TRIAGE_POLICY reads no policy: it gets none (today every app reads it).
        if (app && !configVariables(app.schema).includes('TRIAGE_POLICY')) continue;
        const policy = pod.volumes.find((v: any) => v.configMap && named(objects, 'ConfigMap', v.configMap.name));
        expect(policy, `${d.metadata.name}: a volume from a rendered ConfigMap`).toBeDefined();
      }
    }
  });

  it('sets only variables the process reads, with values its configuration accepts', () => {
    for (const objects of [dev, prod]) {
      for (const app of devApps) {
        const d = named(objects, 'Deployment', app.name)!;
        const container = podSpecOf(d).containers[0];
        const reads = new Set(configVariables(app.schema));
        const set = (container.env as { name: string }[]).map((e) => e.name);
        expect(set.filter((v) => !reads.has(v)), `${app.name}: variables it does not read`).toEqual([]);
        expect(container.envFrom, `${app.name}: envFrom would hide what is set`).toBeUndefined();
        for (const secret of ['REDIS_URL', 'MONGODB_URL']) expect(set, app.name).toContain(secret);
      }
    }
    // The literal values, with the ConfigMap's files where they are mounted, parse as the process parses them.
    for (const app of devApps) {
      const env = withMountedFiles(dev, app, policyDir);
      expect(() => loadConfig(app.schema, { ...env, REDIS_URL: 'redis://redis:6379' }), app.name).not.toThrow();
    }
  });

  it('dev generates every Secret key the manifests require; prod documents each of them', async () => {
    const { readFileSync } = await import('node:fs');
    const docs = readFileSync(join(ROOT, 'docs/kubernetes.md'), 'utf8');
    const required = new Set<string>();
    for (const o of prod) {
      for (const c of workloads([o]).flatMap((w) => podSpecOf(w).containers)) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref) {
            expect(docs, `docs/kubernetes.md names ${ref.name} ${ref.key}`).toContain(`\`${ref.key}\``);
            if (!ref.optional) required.add(`${ref.name}/${ref.key}`);
          }
        }
      }
      for (const ref of o.kind === 'TriggerAuthentication' ? o['spec'].secretTargetRef : []) expect(docs).toContain(`\`${ref.key}\``);
    }
    for (const o of dev.filter((x) => x.kind === 'TriggerAuthentication')) for (const ref of o['spec'].secretTargetRef) required.add(`${ref.name}/${ref.key}`);
    for (const ref of required) {
      const [name, key] = ref.split('/') as [string, string];
      expect(named(dev, 'Secret', name)?.['data']?.[key], `dev Secret ${ref}`).toBeDefined();
    }
  });

  it('probes the ports the processes listen on, on paths they answer with 200', () => {
    for (const app of devApps) {
      const config = loadConfig(app.schema, { ...app.env, TRIAGE_POLICY: undefined }) as Record<string, unknown>;
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        const httpGet = app.container[probe]?.httpGet;
        expect(httpGet, `${app.name} ${probe}`).toBeDefined();
        expect(containerPort(app.container, httpGet.port), `${app.name} ${probe} port`).toBe(config[portVariable(app.schema)]);
        expect(observed.get(app.name)!.probes[probe], `${app.name} ${probe} ${httpGet.path}`).toBe(200);
      }
    }
  });

  it('the ServiceMonitor scrapes /metrics of every process, on the port that serves it', () => {
    for (const objects of [dev, prod]) {
      const monitor = objects.find((o) => o.kind === 'ServiceMonitor')!;
      const selector = monitor['spec'].selector.matchLabels as Record<string, string>;
      const services = objects.filter((o) => o.kind === 'Service' && Object.entries(selector).every(([k, v]) => o.metadata.labels?.[k] === v));
      for (const app of devApps) {
        const podLabels = named(objects, 'Deployment', app.name)!['spec'].template.metadata.labels as Record<string, string>;
        const scraped = services.flatMap((s) =>
          Object.entries(s['spec'].selector as Record<string, string>).every(([k, v]) => podLabels[k] === v)
            ? (s['spec'].ports as any[]).flatMap((p) => monitor['spec'].endpoints.filter((e: any) => e.port === p.name).map((e: any) => ({ path: e.path, port: containerPort(app.container, p.targetPort) })))
            : [],
        );
        const config = loadConfig(app.schema, { ...app.env, TRIAGE_POLICY: undefined }) as Record<string, unknown>;
        expect(scraped, app.name).toEqual([{ path: '/metrics', port: config[portVariable(app.schema)] }]);
        expect(observed.get(app.name)!.metrics, `${app.name} /metrics`).toBe(200);
      }
    }
  });

  it('carries deploy/monitoring: the alerting rules as a PrometheusRule, word for word, and the dashboard for Grafana\'s sidecar', async () => {
    const { readFileSync } = await import('node:fs');
    const alerts = parseAllDocuments(readFileSync(join(ROOT, 'deploy/monitoring/prometheus/alerts.yml'), 'utf8'))[0]!.toJS() as { groups: unknown[] };
    const dashboard = readFileSync(join(ROOT, 'deploy/monitoring/grafana/dashboards/report-moderation.json'), 'utf8');
    for (const objects of [dev, prod]) {
      const rules = objects.filter((o) => o.kind === 'PrometheusRule');
      expect(rules).toHaveLength(1);
      expect(rules[0]!['spec'].groups).toEqual(alerts.groups);
      const dashboards = objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.['grafana_dashboard'] === '1');
      expect(dashboards).toHaveLength(1);
      expect(dashboards[0]!['data']['report-moderation.json']).toBe(dashboard);
    }
  });

  it('the Ingress routes the public API and never /metrics or /admin/queues', () => {
    // Kubernetes' Prefix match is by whole path elements; Exact is the whole path.
    const matches = (p: { path: string; pathType: string }, path: string) =>
      p.pathType === 'Exact' ? p.path === path : path === p.path || path.startsWith(`${p.path.replace(/\/$/, '')}/`);
    for (const objects of [dev, prod]) {
      const paths = objects.filter((o) => o.kind === 'Ingress').flatMap((i) => i['spec'].rules.flatMap((r: any) => r.http.paths));
      for (const path of ['/metrics', '/admin/queues', '/admin/queues/api/queues', '/ready']) expect(paths.filter((p: any) => matches(p, path)), path).toEqual([]);
      for (const path of ['/v1/reports/new', '/openapi.json', '/console/', '/health']) expect(paths.filter((p: any) => matches(p, path)).length, path).toBeGreaterThan(0);
      const gateway = named(objects, 'Service', 'gateway')!;
      for (const p of paths) {
        const servicePort = gateway['spec'].ports.find((sp: any) => sp.name === p.backend.service.port.name);
        expect(containerPort(podSpecOf(named(objects, 'Deployment', 'gateway')!).containers[0], servicePort.targetPort)).toBe(3000);
      }
    }
  });

  it('scales the gateway on CPU; prod gives every Deployment a PodDisruptionBudget and more than one replica', () => {
    for (const objects of [dev, prod]) {
      const hpa = objects.find((o) => o.kind === 'HorizontalPodAutoscaler')!;
      expect(hpa['spec'].scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'gateway' });
      expect(hpa['spec'].metrics[0].resource.name).toBe('cpu');
    }
    for (const d of prod.filter((o) => o.kind === 'Deployment')) {
      const labels = d['spec'].template.metadata.labels;
      const pdbs = prod.filter((o) => o.kind === 'PodDisruptionBudget' && Object.entries(o['spec'].selector.matchLabels).every(([k, v]) => labels[k] === v));
      expect(pdbs, d.metadata.name).toHaveLength(1);
      const scaler = prod.find((o) => (o.kind === 'ScaledObject' || o.kind === 'HorizontalPodAutoscaler') && o['spec'].scaleTargetRef.name === d.metadata.name)!;
      expect(scaler['spec'].minReplicaCount ?? scaler['spec'].minReplicas, d.metadata.name).toBeGreaterThanOrEqual(2);
    }
  });

  it('the redis-cluster component switches every trigger to KEDA\'s cluster scaler, reaching the masters from the Secret', async () => {
    const objects = render({ components: ['components/redis-cluster'] });
    for (const o of objects) {
      const Model = await modelOf(o);
      expect(() => new Model!(o).validate(), `${o.kind}/${o.metadata.name}`).not.toThrow();
    }
    const triggers = objects.filter((o) => o.kind === 'ScaledObject').flatMap((o) => o['spec'].triggers);
    expect(triggers.length).toBe(prod.filter((o) => o.kind === 'ScaledObject').flatMap((o) => o['spec'].triggers).length);
    for (const t of triggers) expect(t.type, t.metadata.listName).toBe('redis-cluster');
    const auth = objects.find((o) => o.kind === 'TriggerAuthentication')!;
    expect(auth['spec'].secretTargetRef.map((r: any) => r.parameter).sort()).toEqual(['addresses', 'password']);
  });

  it('dev runs Redis with AOF and noeviction, under a maxmemory below its limit', () => {
    const args = podSpecOf(named(dev, 'StatefulSet', 'redis')!).containers[0].args.join(' ');
    expect(args).toContain('--appendonly yes');
    expect(args).toContain('--maxmemory-policy noeviction');
    expect(args).toMatch(/--maxmemory \d+mb/);
  });

  it("prod's documented `kubectl create secret` sets exactly the keys prod requires", async () => {
    const { readFileSync } = await import('node:fs');
    const docs = readFileSync(join(ROOT, 'docs/kubernetes.md'), 'utf8');
    const command = /create secret generic report-moderation-connections((?:[^\n]*\\\n)*[^\n]*)/.exec(docs)![1]!;
    const documented = new Set([...command.matchAll(/--from-literal=([a-z0-9-]+)=/g)].map((m) => m[1]!));
    const required = new Set<string>();
    // REQUIRE_SHARED_STORAGE makes these variables required where the process declares them.
    const sharedStorage: readonly string[] = SHARED_STORAGE_VARIABLES;
    for (const c of workloads(prod).flatMap((w) => podSpecOf(w).containers)) {
      const shared = (c.env ?? []).some((e: any) => e.name === 'REQUIRE_SHARED_STORAGE' && e.value === 'true');
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref?.name === 'report-moderation-connections' && (!ref.optional || (shared && sharedStorage.includes(e.name)))) required.add(ref.key);
      }
    }
    for (const o of prod.filter((x) => x.kind === 'TriggerAuthentication')) for (const ref of o['spec'].secretTargetRef) required.add(ref.key);
    expect([...documented].sort()).toEqual([...required].sort());
    expect(required).toContain('evidence-token-secret');
    expect(required).toContain('evidence-s3-bucket');
  });

  it('KEDA reaches Redis: a fallback on every ScaledObject, TLS on every prod trigger, a full service name in dev', () => {
    for (const objects of [dev, prod]) {
      for (const o of objects.filter((x) => x.kind === 'ScaledObject')) {
        expect(o['spec'].fallback?.failureThreshold, o.metadata.name).toBeGreaterThan(0);
        expect(o['spec'].fallback?.replicas, o.metadata.name).toBeGreaterThanOrEqual(o['spec'].minReplicaCount);
        expect(o['spec'].fallback?.replicas, o.metadata.name).toBeLessThanOrEqual(o['spec'].maxReplicaCount);
      }
    }
    for (const t of prod.filter((o) => o.kind === 'ScaledObject').flatMap((o) => o['spec'].triggers)) expect(t.metadata.enableTLS, t.metadata.listName).toBe('true');
    const secret = named(dev, 'Secret', 'report-moderation-connections')!;
    const address = Buffer.from(secret['data']['redis-address'], 'base64').toString();
    const redisService = named(dev, 'Service', 'redis')!;
    expect(address).toBe(`${redisService.metadata.name}.${redisService.metadata.namespace}.svc.cluster.local:${redisService['spec'].ports[0].port}`);
  });

  it('prod requires shared storage on every Deployment and the migrate Job, and a process started so without it stops naming the setting', async () => {
    for (const d of prod.filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
      expect(podSpecOf(d).containers[0].env, d.metadata.name).toContainEqual({ name: 'REQUIRE_SHARED_STORAGE', value: 'true' });
    }
    // Started as dev runs them, less what REQUIRE_SHARED_STORAGE requires: one line each, naming it.
    const startWithout = (name: string, missing: string, extra: Record<string, string>) => {
      const app = devApps.find((a) => a.name === name)!;
      const env: Record<string, string | undefined> = { PATH: process.env['PATH'], ...withMountedFiles(dev, app, policyDir), REDIS_URL: redisUrl(), DATA_DIR: dataDir, REQUIRE_SHARED_STORAGE: 'true', ...extra };
      delete env[missing];
      const run = spawnSync(process.execPath, [join(ROOT, app.entry)], { env, encoding: 'utf8', timeout: 20_000 });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${name}: invalid configuration: ${missing}: is required when REQUIRE_SHARED_STORAGE is true`))]);
    };
    startWithout('intake-worker', 'MONGODB_URL', {});
    startWithout('gateway', 'EVIDENCE_S3_BUCKET', { MONGODB_URL: 'mongodb://127.0.0.1:1/never?replicaSet=rs0' });
  }, 30_000);

  it('runs `cli migrate` in a Job with the workers\' image and MongoDB secret, retried, before an upgrade, able to reach MongoDB', () => {
    for (const [overlay, objects] of [['dev', dev], ['prod', prod]] as const) {
      const job = named(objects, 'Job', 'migrate');
      expect(job, `${overlay}: the migrate Job`).toBeDefined();
      const pod = podSpecOf(job!);
      const container = pod.containers[0];
      expect(container.command, overlay).toEqual(['node', 'tools/cli/dist/main.js', 'migrate']);
      expect(job!['spec'].backoffLimit, overlay).toBeGreaterThan(0);
      expect(['Never', 'OnFailure'], overlay).toContain(pod.restartPolicy);
      // A Helm-style hook for those who deploy with Helm or Argo CD; kustomize users follow docs/kubernetes.md.
      expect(job!.metadata.annotations?.['helm.sh/hook'], overlay).toMatch(/pre-upgrade/);
      const mongodbUrl = (c: any) => (c.env as any[]).find((e) => e.name === 'MONGODB_URL');
      for (const worker of devApps.filter((a) => a.name !== 'gateway')) {
        const workerContainer = podSpecOf(named(objects, 'Deployment', worker.name)!).containers[0];
        expect(container.image, `${overlay}: the image of ${worker.name}`).toBe(workerContainer.image);
        expect(mongodbUrl(container), `${overlay}: the MONGODB_URL of ${worker.name}`).toEqual(mongodbUrl(workerContainer));
      }
      // Only variables the CLI reads.
      const reads = new Set(configVariables(commonConfig));
      expect((container.env as { name: string }[]).map((e) => e.name).filter((v) => !reads.has(v)), overlay).toEqual([]);
      // It reaches MongoDB: no policy limits its pod's egress, and dev's MongoDB admits it.
      const labels = job!['spec'].template.metadata.labels;
      const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
      for (const p of policies.filter((x) => selects(x, labels))) expect(p['spec'].policyTypes, `${overlay}: ${p.metadata.name}`).not.toContain('Egress');
      const mongo = named(objects, 'StatefulSet', 'mongo');
      if (mongo) {
        const admitting = policies.filter((p) => selects(p, mongo['spec'].template.metadata.labels));
        const from = admitting.flatMap((p) => p['spec'].ingress.flatMap((r: any) => r.from));
        expect(from.some((f: any) => f.podSelector && Object.entries(f.podSelector.matchLabels ?? {}).every(([k, v]) => labels[k] === v)), `${overlay}: MongoDB admits the Job`).toBe(true);
      }
    }
    expect(named(dev, 'StatefulSet', 'mongo'), 'dev runs its MongoDB').toBeDefined();
    // The command runs: on a SQLite file here (no MongoDB on this machine), as the Job's container would on MongoDB.
    const run = spawnSync(process.execPath, [join(ROOT, 'tools/cli/dist/main.js'), 'migrate'], { env: { PATH: process.env['PATH'], DATA_DIR: join(dataDir, 'migrate') }, encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^SQLite \(.*\): applied migrations 1 to \d+; all \d+ applied\n$/);
  });

  it('admits connections only where they belong, spreads every Deployment, and lets the largest request through the Ingress', () => {
    for (const objects of [dev, prod]) {
      const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
      for (const w of workloads(objects)) {
        const labels = w['spec'].template.metadata.labels;
        const mine = policies.filter((p) => selects(p, labels));
        expect(mine, `a NetworkPolicy for ${w.metadata.name}`).toHaveLength(1);
        const from = mine[0]!['spec'].ingress.flatMap((r: any) => r.from);
        // Every source is a named namespace or this service's pods: none open to the whole cluster.
        for (const f of from) expect(f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] ?? f.podSelector?.matchLabels?.['app.kubernetes.io/part-of'], w.metadata.name).toBeTruthy();
        if (w.metadata.name === 'gateway') expect(from.map((f: any) => f.namespaceSelector.matchLabels['kubernetes.io/metadata.name']).sort()).toEqual(['ingress-nginx', 'monitoring']);
        else if (w.kind === 'Deployment') expect(from.map((f: any) => f.namespaceSelector.matchLabels['kubernetes.io/metadata.name'])).toEqual(['monitoring']);
        if (w.kind !== 'Deployment') continue;
        const keys = podSpecOf(w).topologySpreadConstraints?.map((t: any) => t.topologyKey);
        expect(keys, w.metadata.name).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
      }
      const ingress = objects.find((o) => o.kind === 'Ingress')!;
      const size = /^(\d+)m$/.exec(ingress.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-body-size']!)!;
      expect(Number(size[1]) * 1024 * 1024).toBeGreaterThanOrEqual(SANCTIONS_API_LIMITS.batchBodyBytes);
    }
  });

  it('each worker has a ScaledObject watching the wait lists of exactly the queues it consumes: the keys that fill when jobs wait', async () => {
    for (const objects of [dev, prod]) {
      const workers = devApps.filter((a) => a.name !== 'gateway');
      for (const worker of workers) {
        const scaled = objects.filter((o) => o.kind === 'ScaledObject' && o['spec'].scaleTargetRef.name === worker.name);
        expect(scaled, worker.name).toHaveLength(1);
        const spec = scaled[0]!['spec'];
        // Never zero: delayed jobs reach the wait list only through a running worker.
        expect(spec.minReplicaCount, worker.name).toBeGreaterThanOrEqual(1);
        expect(spec.maxReplicaCount).toBeGreaterThanOrEqual(spec.minReplicaCount);
        expect(spec.cooldownPeriod).toBeGreaterThan(0);
        expect(spec.advanced.horizontalPodAutoscalerConfig.behavior.scaleDown.stabilizationWindowSeconds).toBeGreaterThan(0);
        const keyPrefix = loadConfig(commonConfig, worker.env).KEY_PREFIX;
        const watched: QueueKey[] = [];
        for (const trigger of spec.triggers) {
          expect(trigger.type).toBe('redis');
          expect(named(objects, 'TriggerAuthentication', trigger.authenticationRef.name), worker.name).toBeDefined();
          const listName: string = trigger.metadata.listName;
          // The worker's own KEY_PREFIX, in the hash tag: replaced by a fresh one to fill the list here.
          expect(listName, worker.name).toContain(`{${keyPrefix}:`);
          // Which queue of the catalog fills this list when jobs are added and nobody consumes them?
          for (const key of Object.keys(QUEUES) as QueueKey[]) {
            const prefix = `k8sw${randomBytes(4).toString('hex')}`;
            const list = listName.replace(`{${keyPrefix}:`, `{${prefix}:`);
            const queue = openQueue(key, redis, prefix);
            expect(await redis.llen(list)).toBe(0);
            await queue.addBulk([1, 2, 3].map((n) => ({ name: QUEUES[key].name, data: { n } })));
            const length = await redis.llen(list);
            await queue.obliterate({ force: true });
            await queue.close();
            if (length > 0) {
              expect(length, `${listName} holds the 3 waiting jobs of ${key}`).toBe(3);
              watched.push(key);
            }
          }
        }
        expect(watched.sort(), `${worker.name}: queues watched`).toEqual([...observed.get(worker.name)!.consumes].sort());
      }
    }
  });
});
