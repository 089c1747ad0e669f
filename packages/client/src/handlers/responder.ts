/**
 * Answers one question from the server (elicitation, sampling, roots) with the application's
 * handlers, however it was asked: the `Ask` every dialect and the call loop hand questions to.
 * The request is checked before a handler sees it, the handler's answer is checked before the
 * server does, and every way this can fail is a typed error paired with the JSON-RPC error a
 * server is owed. A handler that ignores its signal is not waited for.
 */

import { asError } from '../core/call-boundary.ts';
import {
  HandlerError,
  InputRequiredError,
  isMcpError,
  MalformedMessageError,
  type McpError,
} from '../core/errors.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import type { Question } from '../core/outcome.ts';
import { RpcCode } from '../core/wire-codes.ts';
import type { Ask, AskContext } from '../dialects/dialect.ts';
import { checkFormAnswer, formProblem } from './form.ts';
import type {
  ElicitationRequest,
  HandlerContext,
  Handlers,
  RequestedSchema,
  SamplingRequest,
} from './types.ts';

/** "User rejected" in the sampling spec; any other handler failure is an internal error. */
const USER_REJECTED = -1;

export class Responder {
  readonly #handlers: Handlers;
  readonly #server: () => HandlerContext['server'];

  constructor(handlers: Handlers, server: () => HandlerContext['server']) {
    this.#handlers = handlers;
    this.#server = server;
  }

  /** Describes a question for messages: "elicitation/create (url)". */
  static describe(question: Question): string {
    const mode = question.params?.['mode'];
    return typeof mode === 'string' ? `${question.method} (${mode})` : question.method;
  }

  /** The `Ask` to hand out: bound already, so it is passed as it is. */
  readonly answer: Ask = async (question, context) => {
    try {
      return { ok: true, result: await this.#answer(question, context) };
    } catch (thrown) {
      const error = isMcpError(thrown)
        ? thrown
        : new HandlerError(question.method, `threw: ${asError(thrown).message}`, {
            cause: thrown,
            tool: context.tool,
          });
      return { ok: false, error, refusal: refusalFor(question, error) };
    }
  };

  async #answer(question: Question, context: AskContext): Promise<JsonObject> {
    const handlerContext: HandlerContext = {
      signal: context.signal,
      server: this.#server(),
      ...(context.tool === undefined ? {} : { tool: context.tool }),
    };
    switch (question.method) {
      case 'elicitation/create':
        return this.#elicit(question, handlerContext);
      case 'sampling/createMessage':
        return this.#sample(question, handlerContext);
      case 'roots/list':
        return this.#roots(question, handlerContext);
      default:
        throw this.#unanswered(question, context, []);
    }
  }

  async #elicit(question: Question, context: HandlerContext): Promise<JsonObject> {
    const params = question.params ?? {};
    const mode = params['mode'] ?? 'form';
    const { onElicitation, elicitationModes } = this.#handlers;
    if (mode !== 'form' && mode !== 'url') {
      throw malformed(`elicitation mode "${String(mode)}" is not form or url`, context);
    }
    if (!onElicitation || !elicitationModes.includes(mode)) {
      const needs = onElicitation ? `elicitationModes including '${mode}'` : 'onElicitation';
      throw this.#unanswered({ ...question, params: { ...params, mode } }, context, [needs]);
    }
    const request = elicitationRequest(mode, params, context);
    const result = await untilAborted(
      () => onElicitation(request, context),
      context.signal,
      question.method,
    );
    if (!isObject(result) || !['accept', 'decline', 'cancel'].includes(String(result.action))) {
      throw new HandlerError(
        question.method,
        'answered without an action of accept, decline or cancel',
        {
          tool: context.tool,
        },
      );
    }
    if (result.action !== 'accept' || request.mode === 'url') return { action: result.action };
    const checked = await checkFormAnswer(request.requestedSchema, result.content);
    if ('problems' in checked) {
      throw new HandlerError(question.method, 'answered content that does not match the form', {
        problems: checked.problems,
        tool: context.tool,
      });
    }
    return { action: 'accept', content: checked.content };
  }

  async #sample(question: Question, context: HandlerContext): Promise<JsonObject> {
    const params = question.params ?? {};
    const { onSampling, samplingTools } = this.#handlers;
    const wantsTools = params['tools'] !== undefined || params['toolChoice'] !== undefined;
    if (!onSampling || (wantsTools && !samplingTools)) {
      const described = wantsTools ? [`${question.method} (tools)`] : [question.method];
      const needs = onSampling ? ['samplingTools: true'] : ['onSampling'];
      throw new InputRequiredError(described, { handlers: needs, tool: context.tool });
    }
    if (!Array.isArray(params['messages']) || typeof params['maxTokens'] !== 'number') {
      throw malformed('sampling request without messages and maxTokens', context);
    }
    const result = await untilAborted(
      () => onSampling(params as unknown as SamplingRequest, context),
      context.signal,
      question.method,
    );
    const problems: string[] = [];
    if (!isObject(result)) problems.push('the result is not an object');
    else {
      if (typeof result.model !== 'string') problems.push('model is not a string');
      const content = result.content;
      const blocks = Array.isArray(content) ? content : [content];
      if (!blocks.every((block) => isObject(block) && typeof block['type'] === 'string')) {
        problems.push('content is not a content block or a list of them');
      }
    }
    if (problems.length > 0) {
      throw new HandlerError(question.method, 'answered an invalid result', {
        problems,
        tool: context.tool,
      });
    }
    return { role: 'assistant', ...(result as unknown as JsonObject) };
  }

  async #roots(question: Question, context: HandlerContext): Promise<JsonObject> {
    const roots = this.#handlers.roots;
    if (!roots) throw this.#unanswered(question, context, ['roots']);
    const list = await untilAborted(
      async () => (typeof roots === 'function' ? roots(context) : roots),
      context.signal,
      question.method,
    );
    if (
      !Array.isArray(list) ||
      !list.every((root) => isObject(root) && typeof root.uri === 'string')
    ) {
      throw new HandlerError(question.method, 'answered something other than a list of { uri }', {
        tool: context.tool,
      });
    }
    return { roots: list.map((root) => ({ ...root })) };
  }

  #unanswered(question: Question, context: { tool?: string | undefined }, handlers: string[]) {
    return new InputRequiredError([Responder.describe(question)], { handlers, tool: context.tool });
  }
}

function elicitationRequest(
  mode: 'form' | 'url',
  params: JsonObject,
  context: HandlerContext,
): ElicitationRequest {
  const message = typeof params['message'] === 'string' ? params['message'] : '';
  const meta = isObject(params['_meta']) ? { _meta: params['_meta'] } : {};
  if (mode === 'url') {
    const url = params['url'];
    if (typeof url !== 'string' || !URL.canParse(url)) {
      throw malformed('URL elicitation without a valid url', context);
    }
    // The handler shows it to the user and may open it: a scheme the system would run
    // (`file:`, `javascript:`, an application's own) never reaches it.
    const scheme = new URL(url).protocol;
    if (scheme !== 'https:' && scheme !== 'http:') {
      throw malformed(`URL elicitation of a ${scheme} URL, not http(s)`, context);
    }
    const id = params['elicitationId'];
    return {
      mode,
      message,
      url,
      ...(typeof id === 'string' ? { elicitationId: id } : {}),
      ...meta,
    };
  }
  const problem = formProblem(params['requestedSchema']);
  if (problem) throw malformed(problem, context);
  return {
    mode,
    message,
    requestedSchema: params['requestedSchema'] as unknown as RequestedSchema,
    ...meta,
  };
}

function malformed(problem: string, context: { tool?: string | undefined }): McpError {
  return new MalformedMessageError(`server's question is invalid: ${problem}`, {
    tool: context.tool,
  });
}

/** The options that answer a whole kind of request. */
const WHOLE_HANDLERS: ReadonlySet<string> = new Set(['onElicitation', 'onSampling', 'roots']);

/** The JSON-RPC error the spec has a client send when it cannot answer `question`. */
function refusalFor(question: Question, error: McpError): { code: number; message: string } {
  if (error instanceof InputRequiredError) {
    // An elicitation mode or a sampling feature the client did not declare is "invalid params";
    // a kind of request it does not take at all (no handler for it, or none exists) is "method
    // not found".
    const partly =
      error.handlers.length > 0 && error.handlers.every((name) => !WHOLE_HANDLERS.has(name));
    return {
      code: partly ? RpcCode.invalidParams : RpcCode.methodNotFound,
      message: error.message,
    };
  }
  if (error instanceof MalformedMessageError)
    return { code: RpcCode.invalidParams, message: error.message };
  if (
    question.method === 'sampling/createMessage' &&
    error instanceof HandlerError &&
    error.problems.length === 0
  ) {
    return { code: USER_REJECTED, message: error.message };
  }
  return { code: RpcCode.internalError, message: error.message };
}

/**
 * Runs a handler, but stops waiting when `signal` fires: a handler that hangs must not hold the
 * call past its deadline. The handler sees the same signal and should stop too.
 */
async function untilAborted<T>(
  run: () => T | Promise<T>,
  signal: AbortSignal,
  method: string,
): Promise<T> {
  if (signal.aborted) throw signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([Promise.resolve().then(run), aborted]);
  } catch (error) {
    if (signal.aborted && error === signal.reason) throw asError(error);
    throw isMcpError(error)
      ? error
      : new HandlerError(method, `threw: ${asError(error).message}`, { cause: error });
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
