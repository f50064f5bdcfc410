import { z } from 'zod';
import { PERMISSIONS } from './permissions.js';
import { ModeratorView } from './http.js';

/**
 * GET /v1/me: who the calling key is, so a client (the console) learns the moderator a bound key
 * acts as without asking. `permissions` are the key's effective ones (every one for an admin key).
 */
export const MeResponse = z.strictObject({
  success: z.literal(true),
  key: z.strictObject({ id: z.string(), name: z.string(), permissions: z.array(z.enum(PERMISSIONS)) }),
  moderator: ModeratorView.nullable(),
});
export type MeResponse = z.infer<typeof MeResponse>;
