import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIMITS } from '@rm/contracts';
import { uuidv7 } from '@rm/runtime';
import type { GatewayDeps } from './deps.js';
import { ApiKeyCache } from './http/api-key-cache.js';
import { installAuth } from './http/auth.js';
import { installErrorHandling } from './http/error-handler.js';
import { decisionsRoutes } from './routes/decisions.routes.js';
import { reportsRoutes } from './routes/reports.routes.js';

/** Builds the HTTP API without listening: main.ts listens, tests may too. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: LIMITS.bodyBytes,
    // Slow or stalled clients are cut off instead of holding a socket forever.
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : uuidv7();
    },
    routerOptions: { maxParamLength: 256 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  const keyCache = new ApiKeyCache(deps.store, deps.config.KEY_CACHE_TTL_MS);
  await app.register(
    async (v1) => {
      installAuth(v1, keyCache, deps.guard);
      await v1.register(reportsRoutes(deps));
      await v1.register(decisionsRoutes(deps));
    },
    { prefix: '/v1' },
  );
  return app;
}
