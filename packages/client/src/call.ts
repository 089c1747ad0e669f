/**
 * The call loop, written once for every dialect: let the dialect adapt the operation to its era,
 * send it, then act on the Outcome. Handlers for `input` and redemption of `pending` plug in
 * here as their issues land; until then each ends in a typed error saying what the server wanted.
 */
import type { Dialect, Operation, SendContext } from './dialects/dialect.ts';
import { InputRequiredError, MalformedMessageError } from './errors.ts';
import type { JsonObject } from './jsonrpc.ts';

export async function runCall(
  dialect: Dialect,
  operation: Operation,
  context: SendContext,
): Promise<JsonObject> {
  const adapted = await dialect.adapt(operation);
  // The dialect took care of it without a request (a modern log level, say).
  if (!adapted) return {};
  const outcome = await dialect.send(adapted, context);
  const where = { method: adapted.method, tool: adapted.tool };
  switch (outcome.kind) {
    case 'complete':
      return outcome.result;
    case 'failure':
      throw outcome.error;
    case 'input':
      throw new InputRequiredError(Object.values(outcome.requests).map(describeRequest), where);
    case 'pending':
      // The client declares no tasks extension yet, so a server must not defer; say so plainly.
      throw new MalformedMessageError(
        `server deferred the call as ${outcome.handle.kind} ${outcome.handle.id}, which is not redeemed yet`,
        where,
      );
  }
}

/** "elicitation/create (url)": the method, and the mode when the request has one. */
function describeRequest(request: { method: string; params?: JsonObject | undefined }): string {
  const mode = request.params?.['mode'];
  return typeof mode === 'string' ? `${request.method} (${mode})` : request.method;
}
