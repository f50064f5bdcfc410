/** The queue the bare queue stack adds to, shared with the bench, which drops it between runs. */
export const BARE_QUEUE = { name: 'bare-intake', prefix: 'bare' } as const;
