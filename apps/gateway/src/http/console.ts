import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '@rm/contracts';

/** Where `nx build @rm/console` puts the console: beside this app in the repository (and the image). */
export const CONSOLE_DIR = resolve(import.meta.dirname, '../../../console/dist');

/**
 * No inline script, no script or connection to any other origin: a report's text that slipped into
 * the page as HTML still could not run. Avatars may come from any http(s) host; kept evidence is
 * fetched from this origin with the moderator's key and shown from `blob:` URLs.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: http: data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the moderator console's static build at /console. It holds no secret and skips no check:
 * every piece of data it shows comes from the /v1 API with the moderator's own key.
 */
export async function installConsole(app: FastifyInstance, logger: Logger, root = CONSOLE_DIR): Promise<void> {
  if (!existsSync(resolve(root, 'index.html'))) {
    logger.warn({ root }, 'the console is not built (npx nx build @rm/console): /console answers 404');
    app.get('/console', { schema: { hide: true } }, async () => {
      throw new AppError('NOT_FOUND', 'The console is not built on this server');
    });
    return;
  }
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', CONSOLE_CSP);
      reply.header('x-content-type-options', 'nosniff');
      // Evidence links open other sites: they learn nothing of the console's address.
      reply.header('referrer-policy', 'no-referrer');
    });
    await scope.register(fastifyStatic, { root, prefix: '/console/', schemaHide: true });
    scope.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 301));
  });
}
