import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Paths that may carry a secret: never written to a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'secret',
  '*.secret',
  'secretHash',
  '*.secretHash',
];

export function createLogger(name: string, level: string, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: name, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
