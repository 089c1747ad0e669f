/**
 * One call, written once for every dialect, in two plain steps. First the rounds of input: let
 * the dialect adapt the operation to its era and send it; a server that needs answers gets them
 * from the application's handlers and the call is sent again (2026-07-28 `input_required`;
 * 2025-11-25 -32042 URL elicitations), within `maxInputRounds`. Then, if the server deferred the
 * call (a task, a promise), the wait until the answer is in (redeem.ts), answering what the work
 * asks on the way; with `autoRedeem` off, the call ends with the handle instead.
 */

import {
  InputRequiredError,
  InputRoundsExceededError,
  type McpError,
  UrlElicitationRequiredError,
} from '../core/errors.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { Outcome, Question } from '../core/outcome.ts';
import { asIs } from '../core/outcome.ts';
import type { Ask, Dialect, Operation, SendContext } from '../dialects/dialect.ts';
import type { UrlCompletions } from '../handlers/url-completions.ts';
import { step } from '../telemetry/span.ts';
import type { CallHandle } from './handles.ts';
import { type CallStatus, Deferral, type RedeemSupport } from './redeem.ts';

/** What the call loop needs to answer a server's questions and wait for deferred work. */
export interface CallSupport extends RedeemSupport {
  /** Answers the server's questions: the same `ask` the dialects are given. */
  ask: Ask;
  maxInputRounds: number;
  urlCompletions: UrlCompletions;
  /** Wait for deferred work (true), or end the call with its handle (false). */
  autoRedeem: boolean;
  url: string;
}

/** What one call wants to hear about while it runs. */
export interface CallContext extends SendContext {
  onStatus?: ((status: CallStatus) => void) | undefined;
}

/** Where a call starts: an operation to send, or deferred work to go on waiting for. */
export type CallStart = { operation: Operation } | { handle: CallHandle };

/** What a call gave back. */
export interface CallResult {
  result: JsonObject;
  /**
   * The server gave it only after the user or the model answered something: it is never cached,
   * as the next read must ask again.
   */
  afterInput: boolean;
}

type Pending = Extract<Outcome, { kind: 'pending' }>;

/** The pause before asking again about a URL flow the user is still in: doubling, capped. */
const URL_WAIT_MS = { first: 500, max: 5_000 } as const;

export function runCall(
  dialect: Dialect,
  start: CallStart,
  context: CallContext,
  support: CallSupport,
): Promise<CallResult> {
  if ('handle' in start) return redeemCall(dialect, start.handle, context, support);
  const operation = dialect.adapt(start.operation);
  // Most operations are sent as they are: no turn of the event loop for them.
  if (operation instanceof Promise) {
    return operation.then((adapted) =>
      adapted ? sendCall(dialect, adapted, context, support) : nothingSent(),
    );
  }
  return operation
    ? sendCall(dialect, operation, context, support)
    : Promise.resolve(nothingSent());
}

/** The dialect took care of it without a request (a modern log level, say). */
function nothingSent(): CallResult {
  return { result: {}, afterInput: false };
}

/** The first send on a callback: nearly every call is answered at once, nothing asked or deferred. */
function sendCall(
  dialect: Dialect,
  operation: Operation,
  context: CallContext,
  support: CallSupport,
): Promise<CallResult> {
  const then = (first: Outcome): CallResult | Promise<CallResult> =>
    first.kind === 'complete'
      ? { result: first.result, afterInput: false }
      : laterRounds(dialect, operation, first, context, support);
  return dialect.send(operation, context, then);
}

/** The call was not answered at once: the rounds of input, then the wait for deferred work. */
async function laterRounds(
  dialect: Dialect,
  operation: Operation,
  first: Outcome,
  context: CallContext,
  support: CallSupport,
): Promise<CallResult> {
  const { method, tool } = operation;
  const asking = new Asking(support, context, { method, tool });
  const answer = await inputRounds(dialect, operation, first, context, asking);
  if (answer.kind === 'complete') {
    if (asking.asked) context.onStatus?.({ state: 'done' });
    return { result: answer.result, afterInput: asking.asked };
  }
  const handle = Deferral.handleFor(answer, dialect, support.url, tool ?? '');
  const deferral = new Deferral(dialect, handle, context, support, context.onStatus);
  await deferral.begin(answer);
  const result = support.autoRedeem
    ? await waitFor(deferral, asking)
    : deferredResult(answer, handle);
  return { result, afterInput: asking.asked };
}

/** Waiting again for a deferred call, from its handle. */
async function redeemCall(
  dialect: Dialect,
  handle: CallHandle,
  context: CallContext,
  support: CallSupport,
): Promise<CallResult> {
  const asking = new Asking(support, context, { method: 'tools/call', tool: handle.tool });
  const deferral = new Deferral(dialect, handle, context, support, context.onStatus);
  return { result: await waitFor(deferral, asking), afterInput: asking.asked };
}

/**
 * Step one: answer what the server asks, send again, until it answers or defers the call. A
 * failure the handlers cannot fix ends the call. `first` is the answer to the first send.
 */
async function inputRounds(
  dialect: Dialect,
  operation: Operation,
  first: Outcome,
  context: CallContext,
  asking: Asking,
): Promise<Extract<Outcome, { kind: 'complete' }> | Pending> {
  let next = operation;
  for (let outcome = first; ; outcome = await dialect.send(next, context, asIs)) {
    switch (outcome.kind) {
      case 'complete':
      case 'pending':
        return outcome;
      case 'failure':
        if (!(outcome.error instanceof UrlElicitationRequiredError)) throw outcome.error;
        await asking.finishUrlElicitations(outcome.error);
        next = operation;
        break;
      case 'input': {
        context.onStatus?.({ state: 'input_required' });
        const responses = await asking.answerAll(outcome.questions);
        next = outcome.retry?.(responses) ?? retryWith(operation, responses, outcome.state);
        break;
      }
    }
  }
}

/** Step two: wait for the deferred work; what it asks on the way is answered and sent. */
async function waitFor(deferral: Deferral, asking: Asking): Promise<JsonObject> {
  for (;;) {
    const waited = await deferral.wait();
    if (waited.kind === 'complete') return waited.result;
    await deferral.provide(asking.answerAll(waited.questions));
  }
}

/**
 * With `autoRedeem` off, a deferred call ends at once: a text naming the work (the model that
 * holds MCP-lite's `redeem` tool needs the token), and the handle for `client.redeem`.
 */
function deferredResult(outcome: Pending, handle: CallHandle): JsonObject {
  const what =
    handle.kind === 'promise'
      ? `The server is working on it: redeem promise token ${handle.id} to get the result`
      : 'The server accepted the call as a task and is working on it';
  // A promise's wait is the server's estimate of completion; a task's is only its poll interval.
  const when =
    handle.kind === 'promise' && outcome.retryAfterMs !== undefined
      ? ` (ready in about ${Math.ceil(outcome.retryAfterMs / 1000)} s)`
      : '';
  return {
    content: [{ type: 'text', text: `${what}${when}.` }],
    isError: false,
    pending: handle as unknown as JsonObject,
  };
}

/**
 * The 2026-07-28 retry: the same request under a new id, with the answers keyed as asked and the
 * server's state echoed exactly (and no state at all when the server sent none).
 */
function retryWith(
  operation: Operation,
  responses: Record<string, JsonObject>,
  state: string | undefined,
): Operation {
  const params: JsonObject = { ...operation.params, inputResponses: responses };
  if (state !== undefined) params['requestState'] = state;
  return { ...operation, params };
}

/** The questions of one call, across its rounds. */
class Asking {
  readonly #input: CallSupport;
  readonly #context: SendContext;
  readonly #where: { method: string; tool: string | undefined };
  #rounds = 0;
  /**
   * URL flows the user already took on in this call, by elicitationId (or URL): never asked
   * twice. Made when the first is accepted: nearly every call asks nothing.
   */
  #acceptedUrls: Set<string> | undefined;
  #urlWaits = 0;
  /** Whether the server asked anything at all. */
  asked = false;

  constructor(
    input: CallSupport,
    context: SendContext,
    where: { method: string; tool: string | undefined },
  ) {
    this.#input = input;
    this.#context = context;
    this.#where = where;
  }

  /** One round of `input_required`: every question answered, concurrently, or the call fails. */
  answerAll(questions: Record<string, Question>): Promise<Record<string, JsonObject>> {
    const asked = { 'toolwire.input.requests': Object.keys(questions).join(',') };
    return step(this.#context.deadline, 'input', asked, () => this.#answerAll(questions));
  }

  async #answerAll(questions: Record<string, Question>): Promise<Record<string, JsonObject>> {
    this.asked = true;
    const entries = Object.entries(questions);
    const onlyUrlWaits = entries.length > 0 && entries.every(([, q]) => this.#isAcceptedUrl(q));
    // Waiting on a URL flow the user is in involves no one: it is bounded by the deadline alone.
    if (onlyUrlWaits) await this.#pauseForUrls(entries.map(([, q]) => urlKey(q)));
    else this.#countRound();
    const stop = new AbortController();
    const signal = AbortSignal.any([this.#context.deadline.signal, stop.signal]);
    const answers = entries.map(async ([key, question]) => {
      if (this.#isAcceptedUrl(question)) return [key, { action: 'accept' }] as const;
      const answer = await this.#input.ask(question, {
        signal,
        tool: this.#where.tool,
      });
      if (!answer.ok) throw answer.error;
      if (isUrl(question) && answer.result['action'] === 'accept') {
        this.#accept(question);
      }
      return [key, answer.result] as const;
    });
    try {
      return Object.fromEntries(await Promise.all(answers));
    } catch (error) {
      // One question failed: the others stop too, and the call ends with the first reason.
      stop.abort(error);
      throw this.#context.deadline.aborted ? this.#context.deadline.reason : error;
    }
  }

  /**
   * A 2025-11-25 -32042: the user must finish URL flows before the call can run. Each new one
   * goes to the handler; once all are accepted, the call is sent again when the server reports
   * them complete (or after a pause: the notification is optional).
   */
  async finishUrlElicitations(error: UrlElicitationRequiredError): Promise<void> {
    const questions: Question[] = error.elicitations.map((params) => ({
      method: 'elicitation/create',
      params: { ...params, mode: 'url' },
    }));
    if (questions.length === 0) throw error;
    this.asked = true;
    const fresh = questions.filter((question) => !this.#isAcceptedUrl(question));
    if (fresh.length > 0) {
      this.#countRound();
      const results = await Promise.all(fresh.map((question) => this.#answerUrl(question, error)));
      if (results.some((action) => action !== 'accept')) throw error;
    }
    const ids = questions
      .map((question) => question.params?.['elicitationId'])
      .filter((id): id is string => typeof id === 'string');
    await this.#pauseForUrls(ids);
  }

  async #answerUrl(question: Question, error: McpError): Promise<unknown> {
    const answer = await this.#input.ask(question, {
      signal: this.#context.deadline.signal,
      tool: this.#where.tool,
    });
    if (!answer.ok) {
      if (answer.error instanceof InputRequiredError) throw withCause(answer.error, error);
      throw answer.error;
    }
    if (answer.result['action'] === 'accept') this.#accept(question);
    return answer.result['action'];
  }

  #countRound(): void {
    this.#rounds += 1;
    if (this.#rounds > this.#input.maxInputRounds) {
      throw new InputRoundsExceededError(this.#input.maxInputRounds, this.#where);
    }
  }

  async #pauseForUrls(ids: readonly string[]): Promise<void> {
    const ms = Math.min(URL_WAIT_MS.first * 2 ** this.#urlWaits, URL_WAIT_MS.max);
    this.#urlWaits += 1;
    await this.#input.urlCompletions.wait(ids, ms, this.#context.deadline.signal);
  }

  #accept(question: Question): void {
    this.#acceptedUrls ??= new Set();
    this.#acceptedUrls.add(urlKey(question));
  }

  #isAcceptedUrl(question: Question): boolean {
    return isUrl(question) && this.#acceptedUrls?.has(urlKey(question)) === true;
  }
}

function isUrl(question: Question): boolean {
  return question.method === 'elicitation/create' && question.params?.['mode'] === 'url';
}

function urlKey(question: Question): string {
  const params = question.params ?? {};
  const id = params['elicitationId'];
  return typeof id === 'string' ? id : String(params['url']);
}

/** The handler that is missing, with the server's -32042 (and its elicitations) as the cause. */
function withCause(missing: InputRequiredError, cause: McpError): InputRequiredError {
  return new InputRequiredError(missing.requests, {
    handlers: missing.handlers,
    tool: missing.tool,
    method: cause.method,
    url: cause.url,
    cause,
  });
}
