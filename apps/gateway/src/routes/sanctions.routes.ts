import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppError,
  errorResponses,
  LiftSanctionBody,
  LiftSanctionResponse,
  NewSanctionBody,
  PlainErrorResponse,
  SanctionBatchBody,
  SanctionBatchResponse,
  SANCTIONS_API_LIMITS,
  SanctionFeedQuery,
  SanctionFeedResponse,
  SanctionIdParams,
  SanctionResponse,
  SanctionStatusResponse,
  SanctionUserParams,
} from '@rm/contracts';
import type { AccountStore, SanctionStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { etagMatches, FEED_PAGE_TTL_S, FeedPages, sanctionFeed } from '../use-cases/sanction-feed.js';
import { sanctionStatus } from '../use-cases/sanction-status.js';
import { createTrustedSanctions, liftTrustedSanction, type TrustedSanctionDeps } from '../use-cases/trusted-sanctions.js';

const errors = errorResponses(false);
const bodyErrors = errorResponses(true);
const config = { permission: 'sanctions.read' } as const;
const write = { permission: 'sanctions.write' } as const;

type Deps = Pick<GatewayDeps, 'config' | 'logger' | 'sanctionCache' | 'sanctionsQueue'> & { store: SanctionStore & AccountStore };

/** The ban API for game servers: a player's sanctions (checked on join) and the feed of every change. */
export function sanctionsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    const feedPages = new FeedPages();
    app.get(
      '/sanctions/:userId',
      {
        config,
        schema: {
          operationId: 'getSanctionStatus',
          summary: "A player's sanctions and whether they are banned now (check on join)",
          tags: ['sanctions'],
          params: SanctionUserParams,
          response: { 200: SanctionStatusResponse, ...errors },
        },
      },
      async (req, reply) => {
        const json = await sanctionStatus({ store: deps.store, cache: deps.sanctionCache }, req.params.userId);
        // Sent as cached: a string with a JSON content type is not serialized again (the type
        // provider only knows the parsed shape, hence the cast).
        return reply.type('application/json; charset=utf-8').send(json as unknown as SanctionStatusResponse);
      },
    );
    app.get(
      '/sanctions',
      {
        config,
        schema: {
          operationId: 'getSanctionFeed',
          summary: 'Every sanction change in the order it took effect, paged by seq',
          tags: ['sanctions'],
          querystring: SanctionFeedQuery,
          response: { 200: SanctionFeedResponse, ...errors },
        },
      },
      async (req, reply) => {
        const page = await sanctionFeed(deps.store, req.query, feedPages);
        reply.type('application/json; charset=utf-8');
        if (page.etag !== null) {
          // A full page changes only when an erasure or the retention sweep rewrites its events:
          // kept as long as this gateway keeps it (FeedPages), then asked again with its ETag.
          reply.header('etag', page.etag).header('cache-control', `private, max-age=${FEED_PAGE_TTL_S}`);
          // No body, so no Content-Length either (undefined skips the serializer's "null").
          if (etagMatches(req.headers['if-none-match'], page.etag)) return reply.code(304).send(undefined as unknown as SanctionFeedResponse);
        } else {
          reply.header('cache-control', 'no-cache');
        }
        // Sent as built (the type provider only knows the parsed shape, hence the cast).
        return reply.send(page.body as unknown as SanctionFeedResponse);
      },
    );

    // The sanctions API for trusted systems (anti-cheat): sanctions without a report.
    const trusted: TrustedSanctionDeps = {
      store: deps.store,
      policy: deps.config.TRIAGE_POLICY,
      sanctionsQueue: deps.sanctionsQueue,
      statusCache: deps.sanctionCache,
      onQueueError: (err) => deps.logger.warn({ err }, 'Redis refused a sanctions job; the sweep carries it out within seconds'),
    };
    app.post(
      '/sanctions',
      {
        config: write,
        schema: {
          operationId: 'createSanction',
          summary: 'Sanction a player without a report (a trusted system); idempotent on idempotencyKey, which is 409 when reused with other fields',
          tags: ['sanctions'],
          body: NewSanctionBody,
          // 409: the caller's idempotencyKey already names a sanction with other fields.
          response: { 200: SanctionResponse, ...bodyErrors, 409: PlainErrorResponse },
        },
      },
      async (req) => {
        const result = (await createTrustedSanctions({ ...trusted, trace: req.trace?.traceparent }, req.apiKey, [req.body], { prefix: () => '', effectiveAt: undefined }))[0]!;
        if (result.status === 'refused') throw new AppError('VALIDATION_FAILED', result.message, result.errors);
        if (result.status === 'conflict') throw new AppError('CONFLICT', result.message);
        return { success: true as const, created: result.status === 'created', sanction: result.sanction };
      },
    );
    app.post(
      '/sanctions/batch',
      {
        config: write,
        bodyLimit: SANCTIONS_API_LIMITS.batchBodyBytes,
        schema: {
          operationId: 'createSanctionBatch',
          summary: 'Up to 1,000 sanctions at once (a ban wave), optionally scheduled by effectiveAt; one result per item, in order',
          tags: ['sanctions'],
          body: SanctionBatchBody,
          response: { 200: SanctionBatchResponse, ...bodyErrors },
        },
      },
      async (req) => ({
        success: true as const,
        results: await createTrustedSanctions({ ...trusted, trace: req.trace?.traceparent }, req.apiKey, req.body.items, { prefix: (i) => `items.${i}`, effectiveAt: req.body.effectiveAt }),
      }),
    );
    app.post(
      '/sanctions/:sanctionId/lift',
      {
        config: write,
        schema: {
          operationId: 'liftSanction',
          summary: "Lift one sanction (a false positive): the key's own, or any with sanctions.lift_any; lifting it again changes nothing",
          tags: ['sanctions'],
          params: SanctionIdParams,
          body: LiftSanctionBody,
          response: { 200: LiftSanctionResponse, ...bodyErrors },
        },
      },
      async (req) => ({ success: true as const, ...(await liftTrustedSanction({ ...trusted, trace: req.trace?.traceparent }, req.apiKey, req.params.sanctionId, req.body.reason)) }),
    );
  };
}
