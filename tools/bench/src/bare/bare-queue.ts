/** The queue the bare queue stack adds to, shared with the bench, which drops it between runs. */
export const BARE_QUEUE = { name: 'bare-intake', prefix: 'bare' } as const;

/** The queue of the bare decision stack (decision-gateway.ts, decision-worker.ts); its jobs are removed as they complete. */
export const BARE_DECISIONS = { name: 'bare-decisions', prefix: 'bare', replies: 'bare:decision-replies' } as const;
