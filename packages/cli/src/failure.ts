/** What a failure means: the words a person (or a script's log) needs, and the exit status. */
import { isMcpError, type McpError } from '@toolwire/client';
import { needsLogin } from './credentials.ts';
import {
  CliError,
  causeOfType,
  EXIT,
  type ExitCode,
  Interrupted,
  UnansweredError,
} from './exit-codes.ts';
import { UnsafeUrlError } from './openable.ts';

/** The failures that mean the server is out of reach, whenever they happen. */
const CONNECTION_CODES = new Set([
  'TRANSPORT',
  // What describes the server could not be read, or its package cannot run here.
  'DISCOVERY',
  'RUNNER_MISSING',
  // A local server that died is out of reach as a broken connection is.
  'SERVER_EXITED',
  'HTTP_STATUS',
  'CONTENT_TYPE',
  'UNSUPPORTED_SERVER',
  'UNSUPPORTED_VERSION',
  'SESSION_EXPIRED',
  'AUTHORIZATION',
]);

const INPUT_CODES = new Set(['INPUT_REQUIRED', 'URL_ELICITATION_REQUIRED', 'MISSING_INPUT']);

/**
 * The exit status for `error`. `connecting` is true while the client was still connecting: any
 * failure then (a timeout included) means the server is out of reach.
 */
export function exitCodeFor(error: unknown, connecting = false): ExitCode {
  const own = causeOfType(error, CliError);
  if (own) return own.exitCode;
  if (!isMcpError(error)) return EXIT.server;
  if (error.code === 'ABORTED') return EXIT.interrupted;
  if (connecting || CONNECTION_CODES.has(error.code)) return EXIT.connection;
  if (INPUT_CODES.has(error.code)) return EXIT.needsInput;
  return EXIT.server;
}

export function describeError(error: unknown): string {
  // Connecting wraps the client's error in a CliError.
  const failed = error instanceof CliError && error.cause !== undefined ? error.cause : error;
  if (needsLogin(failed)) {
    const url = (failed as McpError).url;
    const where = url ? new URL(url).href : 'the server';
    // The scheme the server's challenge names, never what else it said.
    const scheme = Reflect.get(failed as McpError, 'scheme');
    const named = typeof scheme === 'string' ? `; its challenge names ${scheme}` : '';
    return `${where} asks you to log in: run toolwire login ${where} (or pass -H "Authorization: …")${named}`;
  }
  const unanswered = causeOfType(error, UnansweredError);
  if (unanswered) return unanswered.message;
  // Refused in an auth callback, it is wrapped twice: the client's words say less than ours.
  const unsafe = causeOfType(error, UnsafeUrlError);
  if (unsafe) return unsafe.message;
  if (causeOfType(error, Interrupted)) return 'interrupted; the server was told to stop';
  if (isMcpError(error) && error.code === 'INPUT_REQUIRED') {
    return `${error.message}; toolwire answers forms, URLs and sampling in a terminal`;
  }
  return error instanceof Error ? error.message : String(error);
}
