import type { Server } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIMITS } from '@rm/contracts';
import { uuidv7 } from '@rm/runtime';
import type { GatewayDeps } from './deps.js';
import { ApiKeyCache } from './http/api-key-cache.js';
import { installAuth } from './http/auth.js';
import { answerClientError, createHttpServer } from './http/server.js';
import { handleError, installErrorHandling } from './http/error-handler.js';
import { installJsonBody } from './http/json-body.js';
import { installRequestMetrics } from './http/observability.js';
import { registerTracing } from './http/tracing.js';
import { installOpenApi } from './http/openapi.js';
import { installQueueDashboard } from './http/queue-dashboard.js';
import { casesRoutes } from './routes/cases.routes.js';
import { installConsole } from './http/console.js';
import { decisionsRoutes } from './routes/decisions.routes.js';
import { meRoutes } from './routes/me.routes.js';
import { opsRoutes } from './routes/ops.routes.js';
import { playersRoutes } from './routes/players.routes.js';
import { reportsRoutes } from './routes/reports.routes.js';
import { statsRoutes } from './routes/stats.routes.js';
import { transparencyRoutes } from './routes/transparency.routes.js';
import { sanctionsRoutes } from './routes/sanctions.routes.js';
import { evidenceRoutes, evidenceUploadRoute } from './routes/evidence.routes.js';
import { reportersRoutes } from './routes/reporters.routes.js';
import { appealsRoutes } from './routes/appeals.routes.js';
import { privacyRoutes } from './routes/privacy.routes.js';
import { SIGN_INS_PER_MINUTE, staffRoutes } from './staff/staff.routes.js';
import { appealPageRoutes } from './routes/appeal-page.routes.js';
import { APPEAL_PAGE_PATH } from './use-cases/appeal-link.js';

/** Builds the HTTP API without listening: main.ts listens, tests may too. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify<Server>({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: LIMITS.bodyBytes,
    // X-Forwarded-* (the client's address, host and scheme) believed only from configured proxies.
    trustProxy: deps.config.TRUSTED_PROXIES ?? false,
    // Slow or stalled clients (slow-loris) are cut off instead of holding a socket forever.
    serverFactory: (handler) => createHttpServer(deps.config.HTTP_REQUEST_TIMEOUT_MS, handler),
    connectionTimeout: deps.config.HTTP_REQUEST_TIMEOUT_MS,
    // Malformed requests Node rejects before Fastify sees them still get a declared status and our shape.
    clientErrorHandler: answerClientError,
    // Requests still arriving on kept-alive sockets while we close are served, not refused with 503.
    return503OnClosing: false,
    frameworkErrors: handleError,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : uuidv7();
    },
    // A player id in a path is bounded by the request line, not the router (LIMITS.pathParamLength).
    routerOptions: { maxParamLength: LIMITS.pathParamLength },
    // Two log lines per request would cost more than the request itself at ingestion volume:
    // failures are logged by the error handler, traffic is counted by metrics.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request (it costs more than it gives with request logging off): the
    // few lines a request logs name its id themselves.
    childLoggerFactory: (logger) => logger,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Answers are built by our own typed code; re-checking each against its zod schema on the way
  // out costs more than the rest of a submit. The schemas still document every answer (OpenAPI).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installErrorHandling(app);
  installJsonBody(app);
  installRequestMetrics(app, deps.metrics);
  registerTracing(app);
  await installOpenApi(app);
  await app.register(opsRoutes(deps));

  const keyCache = new ApiKeyCache(deps.store, deps.config.KEY_CACHE_TTL_MS);
  if (deps.config.CONSOLE) await installConsole(app, deps.logger);
  if (deps.config.QUEUE_DASHBOARD) await installQueueDashboard(app, [deps.intakeQueue, deps.decisionsQueue, ...deps.dashboardQueues], keyCache);
  const staff = deps.staff ?? null;
  const signInAdmitted = (address: string) => deps.guard.withinRate(`staff-sign-in:${address}`, SIGN_INS_PER_MINUTE);
  await app.register(staffRoutes({ staff: staff?.signIn ?? null, limits: staff?.limits ?? null, logger: deps.logger, admitted: signInAdmitted }), { prefix: '/auth' });
  await app.register(evidenceUploadRoute(deps), { prefix: '/v1' });
  await app.register(appealPageRoutes({ ...deps, page: deps.appealPage }), { prefix: APPEAL_PAGE_PATH });
  await app.register(
    async (v1) => {
      installAuth(v1, keyCache, deps.guard, staff?.signIn ?? null);
      await v1.register(reportsRoutes(deps));
      await v1.register(decisionsRoutes(deps));
      await v1.register(statsRoutes(deps));
      await v1.register(transparencyRoutes(deps));
      await v1.register(sanctionsRoutes(deps));
      await v1.register(casesRoutes(deps));
      await v1.register(playersRoutes(deps));
      await v1.register(meRoutes(deps));
      await v1.register(evidenceRoutes(deps));
      await v1.register(reportersRoutes(deps));
      await v1.register(appealsRoutes(deps));
      await v1.register(privacyRoutes(deps));
    },
    { prefix: '/v1' },
  );
  return app;
}
