import { createLogger, loadConfig, Metrics } from '@rm/runtime';
import { buildApp } from './app.js';
import { gatewayConfig } from './config.js';
import type { GatewayDeps } from './deps.js';

/**
 * Prints the OpenAPI document the gateway serves at /openapi.json, without listening and without
 * Redis or a store: building the routes touches none of them, and any use of one fails loudly here.
 * Run by the gateway's `lint` (an Nx target), which lints the document with Redocly.
 */
const unavailable = (name: string) =>
  new Proxy(
    {},
    {
      get: (_target, property) => {
        throw new Error(`openapi-dump: ${name}.${String(property)} was used while building the document`);
      },
    },
  );

const deps = {
  // The defaults, whatever this shell's environment says: the document does not depend on them.
  config: loadConfig(gatewayConfig, {}),
  logger: createLogger('gateway', 'silent'),
  metrics: new Metrics('gateway'),
  ...Object.fromEntries(['store', 'redis', 'guard', 'directory', 'intakeQueue', 'intake', 'decisionsQueue', 'decisionEvents'].map((name) => [name, unavailable(name)])),
  dashboardQueues: [],
} as unknown as GatewayDeps;

const app = await buildApp(deps);
await app.ready();
process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
