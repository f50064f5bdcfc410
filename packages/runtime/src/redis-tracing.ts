import type { Cluster, Command, Redis as Standalone } from 'ioredis';
import { recording, SpanKind, withSpan } from './tracing.js';

/**
 * A client span per command this connection sends (`redis <command>`), ended when its answer
 * comes, within a recorded trace only: named by the command only, never its keys or arguments (they name players and hold
 * secrets' hashes). Connections BullMQ duplicates for its blocking reads are not this one.
 */
export function traceCommands(redis: Standalone | Cluster): void {
  const send = redis.sendCommand.bind(redis) as (command: Command, ...rest: unknown[]) => unknown;
  redis.sendCommand = ((command: Command, ...rest: unknown[]) => {
    if (!recording()) return send(command, ...rest);
    // The caller handles the command's failure; the span only records it.
    withSpan(`redis ${command.name}`, { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'redis', 'db.operation.name': command.name } }, () => command.promise).catch(() => undefined);
    return send(command, ...rest);
  }) as typeof redis.sendCommand;
}
