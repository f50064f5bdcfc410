/** How one outbound call to a platform ended, for `rm_platform_calls_total`. */
export type OutboundOutcome = 'ok' | 'error' | 'rate_limited' | 'unreachable';

/** The platforms a process may call, each counted from zero so rates and alerts see it before its first call. */
export const OUTBOUND_TARGETS = ['chat', 'directory', 'webhook'] as const;
export type OutboundTarget = (typeof OUTBOUND_TARGETS)[number];
export const OUTBOUND_OUTCOMES: readonly OutboundOutcome[] = ['ok', 'error', 'rate_limited', 'unreachable'];

type Recorder = (target: OutboundTarget, outcome: OutboundOutcome) => void;

let recorder: Recorder | undefined;

/**
 * Where outbound platform calls are counted. Process-wide because the platform adapters are built
 * deep inside use cases that never see the process's Metrics: the Metrics of the process (there is
 * one per process) installs itself here, and a process without one counts nothing.
 */
export function setOutboundRecorder(next: Recorder | undefined): void {
  recorder = next;
}

export function recordOutboundCall(target: OutboundTarget, outcome: OutboundOutcome): void {
  recorder?.(target, outcome);
}
