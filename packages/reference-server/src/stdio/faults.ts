/**
 * How the stdio server misbehaves on purpose: each fault is one way real local servers go wrong,
 * so that a client can be shown to cope.
 */
export interface StdioFaults {
  /** Exits (code 1) on any request before `initialize` other than `initialize`, as some SDKs do. */
  exitOnUnknown?: boolean;
  /** Never answers `server/discover`: a legacy server that ignores what it does not know. */
  silentProbe?: boolean;
  /** A `tools/call` of this tool makes the process exit (code 70) while the call runs. */
  crashOn?: string;
  /** Before answering `tools/list`, writes a log notification this many bytes long. */
  hugeLine?: number;
  /** Writes lines that are not JSON to stdout: a banner first, then one before every response. */
  garbage?: boolean;
  /** Keeps running after stdin ends (a server that never notices the client left). */
  ignoreEof?: boolean;
  /** Ignores SIGTERM (with `ignoreEof`, only SIGKILL ends it). */
  ignoreSigterm?: boolean;
  /** Starts a process of its own that shares its stdout and runs until killed. */
  grandchild?: boolean;
}

/** The exit code of the crash fault. */
export const CRASH_EXIT_CODE = 70;
