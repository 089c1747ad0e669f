/**
 * @toolwire/langchain/langgraph: a server's elicitation routed into LangGraph's human in the loop.
 *
 * `elicitationInterrupt()` is an `onElicitation` handler for the client. When a tool call makes the
 * server ask the user something, the handler calls LangGraph's `interrupt()`: the graph pauses
 * with the question in `__interrupt__`, the application asks its user, and resumes the graph with
 * `new Command({ resume: { action: 'accept', content } })`. LangGraph then runs the tool node
 * again: the tool is called again, the server asks again, and this time `interrupt()` returns the
 * answer, which the handler gives to the server.
 *
 * Needs a checkpointer on the graph (LangGraph's rule for every interrupt), and the tool must run
 * inside the graph (an `McpStructuredTool` in `createAgent` or a ToolNode does).
 */
import { interrupt } from '@langchain/langgraph';
import type {
  ElicitationHandler,
  ElicitationRequest,
  ElicitationResult,
  FormValue,
  HandlerContext,
} from '@toolwire/client';

export type { ElicitationHandler, ElicitationRequest, ElicitationResult };

/** What the graph's `__interrupt__` carries for an elicitation (unless `toInterrupt` says otherwise). */
export interface ElicitationInterrupt {
  type: 'mcp_elicitation';
  request: ElicitationRequest;
  server?: HandlerContext['server'];
}

export interface ElicitationInterruptOptions {
  /** The value to interrupt with. @default `{ type: 'mcp_elicitation', request, server }` */
  toInterrupt?: (request: ElicitationRequest, context: HandlerContext) => unknown;
  /**
   * Turns the value the graph was resumed with into the answer.
   * @default the value itself, which must be `{ action, content? }`
   */
  fromResume?: (value: unknown, request: ElicitationRequest) => ElicitationResult;
}

/** An `onElicitation` handler that asks the user through a LangGraph interrupt. */
export function elicitationInterrupt(
  options: ElicitationInterruptOptions = {},
): ElicitationHandler {
  const toInterrupt =
    options.toInterrupt ??
    ((request, context): ElicitationInterrupt => ({
      type: 'mcp_elicitation',
      request,
      server: context.server,
    }));
  const fromResume = options.fromResume ?? asElicitationResult;
  return async (request, context) => {
    context.signal.throwIfAborted();
    // The first time, interrupt() throws (the graph pauses); after the resume, it returns.
    const value: unknown = interrupt(toInterrupt(request, context));
    return fromResume(value, request);
  };
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

function asElicitationResult(value: unknown): ElicitationResult {
  const action = (value as { action?: unknown } | null)?.action;
  const content = (value as { content?: unknown } | null)?.content;
  if (typeof action !== 'string' || !ACTIONS.has(action)) {
    throw new TypeError(
      "resume an elicitation with { action: 'accept' | 'decline' | 'cancel', content? }",
    );
  }
  if (content !== undefined && (typeof content !== 'object' || content === null)) {
    throw new TypeError('the content of an elicitation answer must be an object');
  }
  if (action !== 'accept') return { action: action as 'decline' | 'cancel' };
  return content === undefined
    ? { action }
    : { action, content: content as Record<string, FormValue> };
}
