import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, PlayerParams, PlayerResponse } from '@rm/contracts';
import type { GatewayDeps } from '../deps.js';
import { getPlayer } from '../use-cases/get-player.js';

type Deps = Pick<GatewayDeps, 'directory'>;

/** A player's names and avatar from the game platform's directory, for the console's player page. */
export function playersRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/players/:userId',
      {
        config: { permission: 'reports.view_reports' },
        schema: {
          operationId: 'getPlayer',
          summary: 'A player as the game platform’s user directory knows them (404 when it does not)',
          params: PlayerParams,
          response: { 200: PlayerResponse, ...errorResponses(false) },
        },
      },
      async (request) => getPlayer(deps.directory, request.params.userId),
    );
  };
}
