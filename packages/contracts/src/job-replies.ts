import { z } from 'zod';

/**
 * A producer that waits for a job's answer (the gateway, for decisions) names its reply inbox in
 * the job's data; the worker that finishes the job publishes the answer there (runtime's
 * `job-replies.ts`). A job without it (or from an earlier version) is answered by no reply: its
 * producer reads the job itself at its timeout.
 */
export const ReplyAddress = z.object({ replyTo: z.string().regex(/^[A-Za-z0-9-]{1,64}$/) });
export type ReplyAddress = z.infer<typeof ReplyAddress>;

/** What a worker publishes to a reply inbox: the job's return value, or why it failed for good. */
export const JobReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), jobId: z.string(), value: z.unknown() }),
  z.object({ ok: z.literal(false), jobId: z.string(), reason: z.string() }),
]);
export type JobReply = z.infer<typeof JobReply>;

/** The Redis pub/sub channel of one inbox. */
export const replyChannel = (keyPrefix: string, inboxId: string) => `${keyPrefix}:replies:${inboxId}`;
