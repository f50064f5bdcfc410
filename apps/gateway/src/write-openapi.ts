import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createLogger, loadConfig, Metrics } from '@rm/runtime';
import { buildApp } from './app.js';
import { gatewayConfig } from './config.js';
import type { GatewayDeps } from './deps.js';

/**
 * Writes the OpenAPI document the gateway serves at /openapi.json to a file (argument 1), without
 * listening or connecting to anything: the console's API client is generated from it at build
 * time, so the two cannot drift apart. Usage: node dist/write-openapi.js dist/openapi.json
 */

/** A port the routes only use while serving a request, which never happens here. */
function offline<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      if (prop === 'then') return undefined;
      throw new Error(`${name}.${String(prop)} was used while writing the OpenAPI document: no request is served here`);
    },
  });
}

const out = resolve(process.argv[2] ?? 'dist/openapi.json');
const config = { ...loadConfig(gatewayConfig, {}), CONSOLE: false, QUEUE_DASHBOARD: false };
const deps: GatewayDeps = {
  config,
  logger: createLogger('gateway', 'silent'),
  store: offline('store'),
  redis: offline('redis'),
  guard: offline('guard'),
  sanctionCache: offline('sanctionCache'),
  directory: offline('directory'),
  intakeQueue: offline('intakeQueue'),
  intake: offline('intake'),
  decisionsQueue: offline('decisionsQueue'),
  decisions: offline('decisions'),
  sanctionsQueue: offline('sanctionsQueue'),
  dashboardQueues: [],
  metrics: new Metrics('gateway'),
  evidence: { blobs: offline('blobs'), tokens: offline('tokens'), receipts: offline('receipts'), gate: offline('gate'), publicBaseUrl: undefined, maxBytes: config.EVIDENCE_MAX_BYTES, uploadTtlS: config.EVIDENCE_UPLOAD_TTL_S },
  appealPage: { tokens: null, ttlMs: config.APPEAL_LINK_TTL, publicBaseUrl: undefined, submitsPerMinute: config.APPEAL_PAGE_SUBMITS_PER_MINUTE, requestsPerMinute: config.APPEAL_PAGE_REQUESTS_PER_MINUTE },
};
const app = await buildApp(deps);
await app.ready();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
process.stdout.write(`wrote ${out}\n`);
