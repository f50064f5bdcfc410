import type { OkOf } from './capabilities';

/** Who signed in: the key and the moderator it is bound to (null for an unbound key). */
export type Me = OkOf<'/v1/me'>;
