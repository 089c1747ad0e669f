/** A failure in the words a person at the terminal (or a script's log) needs. */
import { isMcpError } from '@toolwire/client';
import { causeOfType, UnansweredError } from './exit-codes.ts';
import { Interrupted } from './session.ts';

export function describeError(error: unknown): string {
  const unanswered = causeOfType(error, UnansweredError);
  if (unanswered) return unanswered.message;
  if (causeOfType(error, Interrupted)) return 'interrupted; the server was told to stop';
  if (isMcpError(error) && error.code === 'INPUT_REQUIRED') {
    return `${error.message}; toolwire answers forms, URLs and sampling in a terminal`;
  }
  return error instanceof Error ? error.message : String(error);
}
