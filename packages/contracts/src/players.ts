import { z } from 'zod';
import { playerId } from './player-id.js';

/** GET /v1/players/{userId}: a player as the game platform's user directory knows them. */
export const PlayerParams = z.strictObject({ userId: playerId('userId') });

export const PlayerResponse = z.strictObject({
  success: z.literal(true),
  player: z.strictObject({
    id: z.string(),
    name: z.string(),
    displayName: z.string(),
    avatar: z.string().nullable(),
  }),
});
export type PlayerResponse = z.infer<typeof PlayerResponse>;
