/**
 * The call loop, written once for every dialect: let the dialect adapt the operation to its era,
 * send it, then act on the Outcome. A server that needs input gets it from the application's
 * handlers and the call is sent again (2026-07-28 `input_required`; 2025-11-25 -32042 URL
 * elicitations), within `maxInputRounds`. Redemption of `pending` plugs in here as its issue
 * lands; until then it ends in a typed error saying what the server did.
 */
import type { Dialect, Operation, SendContext } from './dialects/dialect.ts';
import {
  InputRequiredError,
  InputRoundsExceededError,
  MalformedMessageError,
  type McpError,
  UrlElicitationRequiredError,
} from './errors.ts';
import type { Question, Responder } from './handlers/responder.ts';
import type { UrlCompletions } from './handlers/url-completions.ts';
import type { JsonObject } from './jsonrpc.ts';
import type { InputRequest, Outcome } from './outcome.ts';

/** What the call loop needs to answer a server's questions. */
export interface InputSupport {
  responder: Responder;
  maxInputRounds: number;
  urlCompletions: UrlCompletions;
}

/**
 * Results the server gave only after the user or the model answered something: they are never
 * cached, as the next read must ask again.
 */
export const answeredAfterInput = new WeakSet<JsonObject>();

/** The pause before asking again about a URL flow the user is still in: doubling, capped. */
const URL_WAIT_MS = { first: 500, max: 5_000 } as const;

export async function runCall(
  dialect: Dialect,
  operation: Operation,
  context: SendContext,
  input: InputSupport,
): Promise<JsonObject> {
  const adapted = await dialect.adapt(operation);
  // The dialect took care of it without a request (a modern log level, say).
  if (!adapted) return {};
  const where = { method: adapted.method, tool: adapted.tool };
  const asking = new Asking(input, context, where);
  let next = adapted;
  for (;;) {
    const outcome: Outcome = await dialect.send(next, context);
    switch (outcome.kind) {
      case 'complete':
        if (asking.asked) answeredAfterInput.add(outcome.result);
        return outcome.result;
      case 'failure':
        if (!(outcome.error instanceof UrlElicitationRequiredError)) throw outcome.error;
        await asking.finishUrlElicitations(outcome.error);
        next = adapted;
        break;
      case 'input': {
        const responses = await asking.answerAll(outcome.requests);
        next = outcome.retry?.(responses) ?? retryWith(adapted, responses, outcome.state);
        break;
      }
      case 'pending':
        // The client declares no tasks extension yet, so a server must not defer; say so plainly.
        throw new MalformedMessageError(
          `server deferred the call as ${outcome.handle.kind} ${outcome.handle.id}, which is not redeemed yet`,
          where,
        );
    }
  }
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
  readonly #input: InputSupport;
  readonly #context: SendContext;
  readonly #where: { method: string; tool: string | undefined };
  #rounds = 0;
  /** URL flows the user already took on in this call, by elicitationId (or URL): never asked twice. */
  readonly #acceptedUrls = new Set<string>();
  #urlWaits = 0;
  /** Whether the server asked anything at all. */
  asked = false;

  constructor(
    input: InputSupport,
    context: SendContext,
    where: { method: string; tool: string | undefined },
  ) {
    this.#input = input;
    this.#context = context;
    this.#where = where;
  }

  /** One round of `input_required`: every request answered, concurrently, or the call fails. */
  async answerAll(requests: Record<string, InputRequest>): Promise<Record<string, JsonObject>> {
    this.asked = true;
    const entries = Object.entries(requests);
    const onlyUrlWaits = entries.length > 0 && entries.every(([, q]) => this.#isAcceptedUrl(q));
    // Waiting on a URL flow the user is in involves no one: it is bounded by the deadline alone.
    if (onlyUrlWaits) await this.#pauseForUrls(entries.map(([, q]) => urlKey(q)));
    else this.#countRound();
    const stop = new AbortController();
    const signal = AbortSignal.any([this.#context.deadline.signal, stop.signal]);
    const answers = entries.map(async ([key, question]) => {
      if (this.#isAcceptedUrl(question)) return [key, { action: 'accept' }] as const;
      const answer = await this.#input.responder.answer(question, {
        signal,
        tool: this.#where.tool,
      });
      if (!answer.ok) throw answer.error;
      if (isUrl(question) && answer.result['action'] === 'accept') {
        this.#acceptedUrls.add(urlKey(question));
      }
      return [key, answer.result] as const;
    });
    try {
      return Object.fromEntries(await Promise.all(answers));
    } catch (error) {
      // One question failed: the others stop too, and the call ends with the first reason.
      stop.abort(error);
      throw this.#context.deadline.signal.aborted ? this.#context.deadline.signal.reason : error;
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
    const answer = await this.#input.responder.answer(question, {
      signal: this.#context.deadline.signal,
      tool: this.#where.tool,
    });
    if (!answer.ok) {
      if (answer.error instanceof InputRequiredError) throw withCause(answer.error, error);
      throw answer.error;
    }
    if (answer.result['action'] === 'accept') this.#acceptedUrls.add(urlKey(question));
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

  #isAcceptedUrl(question: Question): boolean {
    return isUrl(question) && this.#acceptedUrls.has(urlKey(question));
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
