/**
 * `_meta.response_type` onto the Outcome waist. `answer` (or no `_meta`) is the final result,
 * `failure` a tool failure the model can read (`isError`, not a protocol error), `promise` work
 * to redeem later, `elicitation` a question for the user, `request-for-more-resource` a typed
 * error carrying the server's answer. The rest of `_meta` (`timestamp`, `processing_time_ms`,
 * `server_version`, ...) stays on the result.
 */
import { type ErrorContext, MoreResourceRequiredError } from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import { malformedResult, type Outcome } from '../../core/outcome.ts';
import { toToolResult } from './content.ts';
import { elicitationOutcome } from './elicitation.ts';

export function outcomeOf(result: JsonObject, where: ErrorContext, now = Date.now()): Outcome {
  const meta = isObject(result['_meta']) ? result['_meta'] : {};
  const type = meta['response_type'] ?? 'answer';
  switch (type) {
    case 'answer':
      return { kind: 'complete', result: toToolResult(result, result['isError'] === true) };
    case 'failure':
      return { kind: 'complete', result: toToolResult(result, true) };
    case 'promise': {
      const token = meta['promise_token'];
      if (typeof token !== 'string' || token === '') {
        return malformedResult('a promise without a promise_token', result, where);
      }
      const due = Date.parse(String(meta['estimated_completion'] ?? ''));
      return {
        kind: 'pending',
        handle: { kind: 'promise', id: token },
        retryAfterMs: Number.isNaN(due) ? undefined : Math.max(0, due - now),
      };
    }
    case 'elicitation':
      return elicitationOutcome(result, meta);
    case 'request-for-more-resource':
      return {
        kind: 'failure',
        error: new MoreResourceRequiredError(toToolResult(result, true), where),
      };
    default:
      return malformedResult(
        `response_type ${JSON.stringify(type)} is not one MCP-lite defines`,
        result,
        where,
      );
  }
}
