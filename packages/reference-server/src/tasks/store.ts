/**
 * Tasks: durable state machines wrapping a tools/call, shared by every session of one server (a
 * task outlives the client that started it, as both task specifications intend). Each runs its
 * job in the background; the job may park the task in `input_required` until the client answers.
 * Expiry is checked when a task is looked up, never by a timer, and `clear()` aborts every job,
 * so a closed server leaves nothing running.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, type JsonObject, RpcError } from '../jsonrpc.ts';
import type { TaskRecord } from '../types.ts';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Which specification the task was created under: its wire shapes differ. */
export type TaskEra = 'modern' | 'legacy';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** What a running job may do besides its work. */
export interface TaskControl {
  /** Aborted when the task is cancelled or the server closes. */
  readonly signal: AbortSignal;
  /** Waits `ms`, or rejects when the task is cancelled. */
  sleep(ms: number): Promise<void>;
  /** Parks the task in `input_required` until every request is answered; resolves to the answers. */
  ask(requests: Record<string, JsonObject>): Promise<Record<string, JsonObject>>;
  /** Sets the task's `statusMessage`. */
  say(message: string): void;
}

export type TaskJob = (control: TaskControl) => Promise<JsonObject>;

export interface TaskTiming {
  ttlMs: number;
  pollIntervalMs: number;
}

interface Question {
  readonly request: JsonObject;
  resolve(answer: JsonObject): void;
  /** Whether the question has been put to the client on a stream (2025-11-25 delivery). */
  sent: boolean;
}

export class Task {
  readonly id = randomBytes(16).toString('hex');
  readonly tool: string;
  readonly era: TaskEra;
  readonly createdAt = new Date();
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly record: TaskRecord;
  status: TaskStatus = 'working';
  statusMessage: string | undefined;
  lastUpdatedAt = new Date();
  result: JsonObject | undefined;
  error: JsonObject | undefined;
  readonly questions = new Map<string, Question>();
  readonly #stop = new AbortController();
  #changed = Promise.withResolvers<void>();

  constructor(tool: string, era: TaskEra, timing: TaskTiming) {
    this.tool = tool;
    this.era = era;
    this.ttlMs = timing.ttlMs;
    this.pollIntervalMs = timing.pollIntervalMs;
    this.record = {
      taskId: this.id,
      tool,
      era,
      statuses: ['working'],
      polls: [],
      cancelled: false,
    };
  }

  get terminal(): boolean {
    return TERMINAL.has(this.status);
  }

  get expired(): boolean {
    return Date.now() > this.createdAt.getTime() + this.ttlMs;
  }

  /** Resolves at the task's next change of status (or of its questions). */
  changed(): Promise<void> {
    return this.#changed.promise;
  }

  /** The answers the client gave to open questions; keys unknown or already answered are ignored. */
  answer(responses: JsonObject): void {
    for (const [key, response] of Object.entries(responses)) {
      const question = this.questions.get(key);
      if (question === undefined || typeof response !== 'object' || response === null) continue;
      this.questions.delete(key);
      question.resolve(response as JsonObject);
    }
    if (this.status === 'input_required' && this.questions.size === 0) this.#set('working');
    else this.#notify();
  }

  /** The client's tasks/cancel: the task ends `cancelled` unless it has ended already. */
  cancel(): void {
    this.record.cancelled = true;
    this.halt();
  }

  /** Stops the job (cancelled, expired, or the server closing). */
  halt(): void {
    if (this.terminal) return;
    this.#set('cancelled');
    this.#stop.abort(new RpcError(ErrorCode.InternalError, 'task cancelled'));
  }

  /** Runs the job in the background; its outcome sets the terminal status. */
  start(job: TaskJob, closing: AbortSignal): void {
    const signal = AbortSignal.any([this.#stop.signal, closing]);
    const control: TaskControl = {
      signal,
      sleep: (ms) => sleep(ms, undefined, { signal }),
      ask: (requests) => this.#ask(requests, signal),
      say: (message) => {
        this.statusMessage = message;
        this.#touch();
      },
    };
    job(control).then(
      (result) => {
        if (this.terminal) return;
        this.result = result;
        // 2025-11-25 calls a task whose tool reported a failure `failed`; SEP-2663 `completed`.
        this.#set(this.era === 'legacy' && result['isError'] === true ? 'failed' : 'completed');
      },
      (error: unknown) => {
        if (this.terminal || signal.aborted) return;
        this.error =
          error instanceof RpcError
            ? { code: error.code, message: error.message, ...dataOf(error) }
            : { code: ErrorCode.InternalError, message: String(error) };
        this.#set('failed');
      },
    );
  }

  #ask(
    requests: Record<string, JsonObject>,
    signal: AbortSignal,
  ): Promise<Record<string, JsonObject>> {
    const answers = Object.entries(requests).map(
      ([key, request]) =>
        new Promise<[string, JsonObject]>((resolve, reject) => {
          this.questions.set(key, {
            request,
            resolve: (answer) => resolve([key, answer]),
            sent: false,
          });
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    );
    this.#set('input_required');
    return Promise.all(answers).then(Object.fromEntries);
  }

  #set(status: TaskStatus): void {
    this.status = status;
    this.record.statuses.push(status);
    this.#touch();
  }

  #touch(): void {
    this.lastUpdatedAt = new Date();
    this.#notify();
  }

  #notify(): void {
    this.#changed.resolve();
    this.#changed = Promise.withResolvers<void>();
  }
}

function dataOf(error: RpcError): JsonObject {
  return error.data === undefined ? {} : { data: error.data as JsonObject };
}

export class TaskStore {
  /** Every task ever created, for tests to observe. */
  readonly records: TaskRecord[] = [];
  readonly #tasks = new Map<string, Task>();
  readonly #closing: AbortSignal;

  constructor(closing: AbortSignal) {
    this.#closing = closing;
  }

  /** Creates the task and starts its job; the task can be read before this returns. */
  create(tool: string, era: TaskEra, timing: TaskTiming, job: TaskJob): Task {
    const task = new Task(tool, era, timing);
    this.#tasks.set(task.id, task);
    this.records.push(task.record);
    task.start(job, this.#closing);
    return task;
  }

  /**
   * The `era` task, or -32602 when it is unknown (or of the other era) or past its TTL (then it
   * is gone for good).
   */
  get(taskId: unknown, era: TaskEra): Task {
    const found = typeof taskId === 'string' ? this.#tasks.get(taskId) : undefined;
    const task = found?.era === era ? found : undefined;
    if (task?.expired) {
      task.halt();
      this.#tasks.delete(task.id);
    }
    if (task === undefined || task.expired) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown task ${String(taskId)}`);
    }
    return task;
  }

  /** The tasks of one era that have not expired, oldest first. */
  list(era: TaskEra): Task[] {
    return [...this.#tasks.values()].filter((task) => task.era === era && !task.expired);
  }

  /** Stops every job (the closing signal does) and forgets every task. */
  clear(): void {
    for (const task of this.#tasks.values()) task.halt();
    this.#tasks.clear();
  }
}
