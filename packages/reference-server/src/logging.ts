/** The RFC 5424 severities MCP logging uses, least severe first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** One of the MCP log levels. */
export type LoggingLevel = (typeof LOG_LEVELS)[number];

/** Narrows an unknown value to a log level. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** Whether a message at `level` passes the client's threshold; no threshold means everything passes. */
export function passesThreshold(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold === undefined || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
