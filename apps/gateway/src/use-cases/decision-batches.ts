import type { Queue } from 'bullmq';
import { QUEUES, decisionBatchJobId, jobIdFor, type OneDecision } from '@rm/contracts';
import { MicroBatcher, type ReplyInbox } from '@rm/runtime';
import { addAndAwait } from './decision-answer.js';

/** Decisions per job at most. */
const MAX_BATCH = 100;

/**
 * Sends the decisions asked for during one turn of the event loop as one job (a `DecisionBatch`)
 * and gives each its own answer. Under load, many moderators' clicks share one add, one fetch and
 * one finish, instead of a round of BullMQ's scripts (and Redis fsyncs) each. A lone decision goes
 * alone, one turn later than it would have: a `setImmediate`.
 *
 * The worker publishes each decision's answer as soon as it is decided, so a claim does not wait
 * for an undo beside it; the job's own answer (all of them) settles what is left, and carries
 * the timeout and a failure of the whole job.
 */
export class DecisionBatches {
  private readonly batcher: MicroBatcher<OneDecision, unknown>;

  constructor(
    queue: Queue,
    private readonly inbox: ReplyInbox,
    timeoutMs: number,
  ) {
    this.batcher = new MicroBatcher(
      async (decisions) => {
        const answers = await addAndAwait(queue, inbox, QUEUES.decisions.name, { decisions }, decisionBatchJobId(decisions[0]!.decisionId), timeoutMs);
        if (!Array.isArray(answers) || answers.length !== decisions.length) throw new Error(`the moderation worker answered ${JSON.stringify(answers)?.slice(0, 100)} for ${decisions.length} decisions`);
        return answers as unknown[];
      },
      { maxBatch: MAX_BATCH },
    );
  }

  /** Resolves with the decision's answer, or rejects as `addAndAwait` does for its whole job. */
  run(decision: OneDecision): Promise<unknown> {
    return new Promise((resolve, reject) => {
      // Whichever comes first, the decision's own answer or its job's: a promise settles once.
      const stop = this.inbox.expect(jobIdFor.decisions(decision.decisionId), (reply) => {
        if (reply.ok) resolve(reply.value);
      });
      this.batcher.submit(decision).then(resolve, reject).finally(stop);
    });
  }
}
