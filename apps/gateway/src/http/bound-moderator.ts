import type { FastifyRequest } from 'fastify';
import { AppError } from '@rm/contracts';

/**
 * A key bound to a moderator acts only as that moderator: a decision whose body names another is
 * refused before it is queued. Runs as a preHandler, after the body was validated.
 */
export async function requireBoundModerator(request: FastifyRequest): Promise<void> {
  const bound = request.apiKey.moderatorId;
  if (bound === undefined) return;
  const named = (request.body as { moderator?: { id?: unknown } } | undefined)?.moderator?.id;
  if (named !== bound) {
    throw new AppError('FORBIDDEN', `This API key is bound to moderator ${bound} and may act only as them, not as ${String(named)}`);
  }
}
