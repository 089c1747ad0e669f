/**
 * The call loop, written once for every dialect: send the operation, then act on the Outcome.
 * Handlers for `input` and redemption of `pending` plug in here as they arrive; until then
 * each ends in a typed error that says what the server asked for.
 */
import type { Dialect, Operation, SendContext } from './dialects/dialect.ts';
import { InputRequiredError, MalformedMessageError } from './errors.ts';
import type { JsonObject } from './jsonrpc.ts';

export async function runCall(
  dialect: Dialect,
  operation: Operation,
  context: SendContext,
): Promise<JsonObject> {
  const outcome = await dialect.send(operation, context);
  const where = { url: undefined, method: operation.method, tool: operation.tool };
  switch (outcome.kind) {
    case 'complete':
      return outcome.result;
    case 'failure':
      throw outcome.error;
    case 'input':
      throw new InputRequiredError(
        Object.values(outcome.requests).map((request) => request.method),
        where,
      );
    case 'pending':
      // No dialect in this release hands back deferred work; say so plainly if one ever does.
      throw new MalformedMessageError(
        `server deferred the call as ${outcome.handle.kind} ${outcome.handle.id}, which is not redeemed yet`,
        where,
      );
  }
}
