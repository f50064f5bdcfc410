import { z } from 'zod';
import { PERMISSIONS } from './permissions.js';
import { ModeratorView } from './http.js';

/**
 * GET /auth/session: how staff sign in to the console here (`oidc`: the studio's identity
 * provider; `key`: an API key, for local use), and the signed-in person when a session cookie came
 * with the request. `csrfToken` must be sent back as `x-csrf-token` on every state-changing call.
 */
export const StaffSessionResponse = z.strictObject({
  success: z.literal(true),
  signIn: z.enum(['oidc', 'key']),
  session: z
    .strictObject({
      moderator: ModeratorView,
      roles: z.array(z.string()),
      permissions: z.array(z.enum(PERMISSIONS)),
      csrfToken: z.string(),
      /** When the session ends at the latest (its idle limit may end it sooner), epoch ms. */
      expiresAt: z.number().int(),
    })
    .nullable(),
});
export type StaffSessionResponse = z.infer<typeof StaffSessionResponse>;

/** POST /auth/sign-out: where to send the browser next (the provider's sign-out page, or the console). */
export const SignOutResponse = z.strictObject({ success: z.literal(true), redirect: z.string() });
export type SignOutResponse = z.infer<typeof SignOutResponse>;
