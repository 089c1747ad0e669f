/**
 * Waiting for deferred work (a task, an MCP-lite promise) until it has an answer. The pace is the
 * server's when it gives one (`pollIntervalMs`, `pollInterval`, `estimated_completion`) and
 * p-retry's jittered backoff when it does not; a poll that finds the work alive counts as
 * progress for the call's deadline. Everything runs under the call's one signal: aborting asks
 * the server to cancel, while a deadline or a closed client leaves the work, and its handle in
 * the store, for `client.redeem` to pick up.
 */
import pRetry from 'p-retry';
import { asError } from '../core/call-boundary.ts';
import { sleep } from '../core/deadline.ts';
import {
  AbortedError,
  HandleExpiredError,
  isMcpError,
  type McpError,
  NotSupportedError,
  TaskCancelledError,
  TaskFailedError,
} from '../core/errors.ts';
import { withHandle } from '../core/handle-notes.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { Outcome, PendingHandle, Question } from '../core/outcome.ts';
import type { CallStatus } from '../core/types.ts';
import type { Dialect, PollOutcome, SendContext } from '../dialects/dialect.ts';
import { step } from '../telemetry/span.ts';
import type { CallHandle, HandleStore } from './handles.ts';

export type { CallStatus } from '../core/types.ts';

export interface RedeemSupport {
  handles: HandleStore;
  /** Whether a poll that finds the work alive restarts the call's timeout (up to its cap). */
  extendOnLife: boolean;
  /** A store that failed, and the like: reported, never thrown. */
  warn(error: Error): void;
}

type Pending = Extract<Outcome, { kind: 'pending' }>;

/** Where a wait stops: the work's answer, or questions it asks before it can go on. */
export type WaitStep =
  | { kind: 'complete'; result: JsonObject }
  | { kind: 'asks'; questions: Record<string, Question> };

/** One poll's end inside the wait: an outcome that is not `pending`, or questions to answer. */
type Found = Exclude<PollOutcome, Pending> | { kind: 'asks'; questions: Record<string, Question> };

/** The backoff between polls when the server gives no pace: 250 ms, doubling, up to 5 s. */
const BACKOFF = { minDelayMs: 250, maxDelayMs: 5_000 } as const;
/** A server's pace below this is no pace at all (a poll interval of 0 would spin). */
const MIN_HINT_MS = 20;
/** How long an abort waits for the server to acknowledge the cancellation. */
const CANCEL_GRACE_MS = 2_000;

/** What the server says when deferred work is over without an answer. */
const DEFINITE = [TaskFailedError, TaskCancelledError, HandleExpiredError] as const;

/** Thrown inside the poll loop to make p-retry wait and poll again. */
class StillPending extends Error {
  readonly outcome: Pending;
  constructor(outcome: Pending) {
    super('still pending');
    this.outcome = outcome;
  }
}

/** One call's deferred work, from the moment the server defers it until its answer is in. */
export class Deferral {
  #handle: CallHandle;
  #pending: PendingHandle;
  readonly #dialect: Dialect;
  readonly #context: SendContext;
  readonly #support: RedeemSupport;
  readonly #onStatus: ((status: CallStatus) => void) | undefined;
  /** Question keys already answered: a task lists them until it takes the answers in. */
  readonly #answered = new Set<string>();
  /** The server's last word on pace (its deferral, or what asked): the next wait starts by it. */
  #pace: Pending | undefined;
  /** What the server said in reply to answers, to be taken as the next poll's outcome. */
  #ready: PollOutcome | undefined;
  #last = '';

  constructor(
    dialect: Dialect,
    handle: CallHandle,
    context: SendContext,
    support: RedeemSupport,
    onStatus?: (status: CallStatus) => void,
  ) {
    this.#dialect = dialect;
    this.#handle = handle;
    this.#pending = { kind: handle.kind, id: handle.id };
    this.#context = context;
    this.#support = support;
    this.#onStatus = onStatus;
  }

  /** The handle for a pending outcome the server just gave for `tool`. */
  static handleFor(outcome: Pending, dialect: Dialect, url: string, tool: string): CallHandle {
    const now = Date.now();
    const { ttlMs } = outcome.handle;
    return {
      kind: outcome.handle.kind,
      id: outcome.handle.id,
      url,
      dialect: dialect.name,
      tool,
      issuedAt: new Date(now).toISOString(),
      expiresAt: ttlMs === undefined ? undefined : new Date(now + ttlMs).toISOString(),
    };
  }

  /**
   * Records the handle and tells the caller the call was deferred; `outcome` (the server's
   * deferral) paces the first poll.
   */
  async begin(outcome: Pending): Promise<void> {
    this.#pace = outcome;
    await this.#store('save', this.#handle);
    this.#report({ state: 'pending', handle: this.#handle });
  }

  /**
   * Polls until the work has an answer, or asks something a `provide` must answer first. The
   * first poll waits for the server's pace when the wait follows a deferral or an answer.
   */
  async wait(): Promise<WaitStep> {
    const dialect = this.#dialect;
    if (!dialect.poll) throw new NotSupportedError(dialect.name, { method: 'redeem' });
    let found: Found;
    try {
      found = await this.#untilFound(dialect.poll);
    } catch (error) {
      throw await this.#interrupted(error);
    }
    switch (found.kind) {
      case 'asks':
        return found;
      case 'failure':
        throw await this.#fail(found.error);
      case 'complete':
        await this.end();
        return found;
    }
  }

  /**
   * Sends the answers to what the work asked. An answer the server gives at once (MCP-lite's
   * redeem) is the next wait's first step; otherwise the next poll tells.
   */
  async provide(answers: Promise<Record<string, JsonObject>>): Promise<void> {
    try {
      const responses = await answers;
      const provide = this.#dialect.provide!;
      const asked = Object.keys(responses);
      const outcome = await provide.call(this.#dialect, this.#pending, responses, this.#context);
      // Answers taken in with their reply: nothing is left for the work to list as asked.
      if (outcome) this.#answered.clear();
      else for (const key of asked) this.#answered.add(key);
      this.#ready = outcome;
    } catch (error) {
      throw await this.#interrupted(error);
    }
  }

  async #untilFound(poll: NonNullable<Dialect['poll']>): Promise<Found> {
    const signal = this.#context.deadline.signal;
    const ready = this.#ready;
    this.#ready = undefined;
    if (ready && ready.kind !== 'pending') return ready;
    if (ready) {
      const questions = await this.#observe(ready);
      if (questions) {
        this.#pace = ready;
        return { kind: 'asks', questions };
      }
    }
    const pace = ready ?? this.#pace;
    if (pace) await sleep(hint(pace) ?? BACKOFF.minDelayMs, signal);
    return await pRetry(
      async (): Promise<Found> => {
        const outcome = await this.#poll(poll);
        if (outcome.kind !== 'pending') return outcome;
        const questions = await this.#observe(outcome);
        if (!questions) throw new StillPending(outcome);
        // The next wait goes at the server's pace, after the answers.
        this.#pace = outcome;
        return { kind: 'asks', questions };
      },
      {
        retries: Number.POSITIVE_INFINITY,
        minTimeout: BACKOFF.minDelayMs,
        maxTimeout: BACKOFF.maxDelayMs,
        factor: 2,
        randomize: true,
        signal,
        // The server's pace, when it gives one, replaces the backoff (and does not grow it).
        shouldConsumeRetry: ({ error }) =>
          !(error instanceof StillPending && hint(error.outcome) !== undefined),
        shouldRetry: async ({ error }) => {
          if (!(error instanceof StillPending)) return false;
          const ms = hint(error.outcome);
          if (ms !== undefined) await sleep(ms, signal);
          return true;
        },
      },
    );
  }

  /** One look at the work, as a `poll` span that says what it found. */
  #poll(poll: NonNullable<Dialect['poll']>): Promise<PollOutcome> {
    const pending = this.#pending;
    const kind = { 'toolwire.handle.kind': pending.kind };
    return step(this.#context.deadline, `poll ${pending.kind}`, kind, async (span) => {
      const outcome = await poll.call(this.#dialect, pending, this.#context);
      const found = outcome.kind === 'pending' ? (outcome.status ?? 'working') : outcome.kind;
      span.set({ 'toolwire.poll.found': found });
      return outcome;
    });
  }

  /** The answer is in: the store forgets the handle. */
  async end(): Promise<void> {
    await this.#store('delete', this.#handle);
    this.#report({ state: 'done', handle: this.#handle });
  }

  /**
   * A poll failed. The server's definite word on the work (failed, cancelled, unknown or
   * expired) ends it; any other failure leaves the handle stored, for a later redeem. Returns
   * the error, carrying the handle.
   */
  async #fail(error: McpError): Promise<McpError> {
    withHandle(error, this.#handle);
    if (DEFINITE.some((kind) => error instanceof kind)) await this.end();
    return error;
  }

  /**
   * A poll found the work alive: note what changed. Returns what it asks that is not answered
   * yet, if the dialect can take answers.
   */
  async #observe(outcome: Pending): Promise<Record<string, Question> | undefined> {
    if (this.#support.extendOnLife) this.#context.deadline.extend();
    if (outcome.handle.id !== this.#pending.id) await this.#renew(outcome);
    this.#report({
      state: outcome.status ?? 'working',
      handle: this.#handle,
      message: outcome.message,
    });
    const fresh = Object.entries(outcome.questions ?? {}).filter(
      ([key]) => !this.#answered.has(key),
    );
    if (fresh.length === 0 || !this.#dialect.provide) return undefined;
    return Object.fromEntries(fresh);
  }

  /** An MCP-lite promise renewed under a new token: the new one replaces the old in the store. */
  async #renew(outcome: Pending): Promise<void> {
    const old = this.#handle;
    this.#pending = outcome.handle;
    this.#handle = {
      ...Deferral.handleFor(outcome, this.#dialect, old.url, old.tool),
      issuedAt: old.issuedAt,
    };
    await this.#store('delete', old);
    await this.#store('save', this.#handle);
  }

  /**
   * The wait stopped before an answer. The caller's abort cancels the work; a deadline, a closed
   * client or a failed poll leave it running and its handle stored, to be redeemed later.
   */
  async #interrupted(error: unknown): Promise<unknown> {
    if (!isMcpError(error)) return error;
    if (error instanceof AbortedError) {
      await this.#cancel();
      await this.#store('delete', this.#handle);
    }
    return withHandle(error, this.#handle);
  }

  async #cancel(): Promise<void> {
    if (!this.#dialect.cancel) return;
    await this.#dialect.cancel(this.#pending, AbortSignal.timeout(CANCEL_GRACE_MS));
  }

  async #store(action: 'save' | 'delete', handle: CallHandle): Promise<void> {
    try {
      await this.#support.handles[action](handle);
    } catch (error) {
      this.#support.warn(asError(error));
    }
  }

  #report(status: CallStatus): void {
    const key = `${status.state} ${status.handle?.id ?? ''} ${status.message ?? ''}`;
    if (key === this.#last) return;
    this.#last = key;
    this.#onStatus?.(status);
  }
}

/** The server's pace for the next poll, if it gave a usable one. */
function hint(outcome: Pending): number | undefined {
  const ms = outcome.retryAfterMs;
  return ms !== undefined && ms >= MIN_HINT_MS ? ms : undefined;
}
