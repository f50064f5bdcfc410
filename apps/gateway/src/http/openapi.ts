import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI 3 document, generated from the zod schemas the routes validate with (one source),
 * served at /openapi.json, with a browsable page at /docs. Must be registered before the routes.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Report Moderation Service',
        version: '1.0.0',
        description: 'Submit and moderate player reports. Every /v1 call needs `Authorization: <API_KEY>:<API_SECRET>`.',
        // The project has not chosen a licence yet (docs/decisions.md); no rights are granted until it does.
        license: { name: 'UNLICENSED' },
      },
      // Relative: the document is served by the gateway it describes, whatever its address.
      servers: [{ url: '/', description: 'The gateway serving this document' }],
      tags: [
        { name: 'reports', description: 'Game clients and servers: submit, check, list' },
        { name: 'moderation', description: 'Moderators: claim, unclaim, approve, dismiss, undo' },
        { name: 'queue', description: 'Lead moderators: queue health' },
        { name: 'sanctions', description: 'Game servers: ban status and the feed of sanction changes' },
      ],
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: '<API_KEY>:<API_SECRET>' } } },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
