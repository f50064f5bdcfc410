import type { Queue } from 'bullmq';
import { QUEUES, jobIdFor, type OneDecision } from '@rm/contracts';
import { MicroBatcher, type ReplyInbox } from '@rm/runtime';
import { addAndAwait } from './decision-answer.js';

/** Decisions per job at most. */
const MAX_BATCH = 100;

/**
 * Sends the decisions asked for during one turn of the event loop as one job (a `DecisionBatch`)
 * and gives each its own answer. Under load, many moderators' clicks share one add, one fetch and
 * one finish, instead of a round of BullMQ's scripts (and Redis fsyncs) each. A lone decision goes
 * alone, one turn later than it would have: a `setImmediate`.
 */
export class DecisionBatches {
  private readonly batcher: MicroBatcher<OneDecision, unknown>;

  constructor(queue: Queue, inbox: ReplyInbox, timeoutMs: number) {
    this.batcher = new MicroBatcher(
      async (decisions) => {
        // The first decision's id names the job: unique, like every decision's.
        const answers = await addAndAwait(queue, inbox, QUEUES.decisions.name, { decisions }, jobIdFor.decisions(decisions[0]!.decisionId), timeoutMs);
        if (!Array.isArray(answers) || answers.length !== decisions.length) throw new Error(`the moderation worker answered ${JSON.stringify(answers)?.slice(0, 100)} for ${decisions.length} decisions`);
        return answers as unknown[];
      },
      { maxBatch: MAX_BATCH },
    );
  }

  /** Resolves with the decision's answer, or rejects as `addAndAwait` does for its whole job. */
  run(decision: OneDecision): Promise<unknown> {
    return this.batcher.submit(decision);
  }
}
