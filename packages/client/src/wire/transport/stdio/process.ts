/**
 * One local server process, spoken to over its standard streams: newline-delimited JSON-RPC on
 * stdin and stdout, logs on stderr. Started without a shell (cross-spawn finds `npx.cmd` and
 * friends on Windows), in a process group of its own so that it can be ended with everything it
 * started, and killed if the parent dies first. Writes honour the pipe's backpressure and fail at
 * once when the process is gone; `close()` asks the server to stop the way the binding says
 * (end of input), then insists (SIGTERM), then ends it (SIGKILL).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import spawn from 'cross-spawn';
import {
  MalformedMessageError,
  type ProcessExit,
  ResponseTooLargeError,
  ServerExitedError,
  TransportError,
} from '../../../core/errors.ts';
import {
  type Incoming,
  type JsonRpcMessage,
  parseMessages,
  type RequestId,
} from '../../../core/jsonrpc.ts';
import { excerpt } from '../http.ts';
import { leadingId } from './leading-id.ts';
import { LineSplitter } from './lines.ts';
import { StderrTail } from './stderr.ts';
import { OWN_GROUP, signalTree, treeAlive } from './tree.ts';
import { dieWithParent } from './with-parent.ts';

export interface ServerCommand {
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  /** The whole environment of the process (see `serverEnvironment`). */
  env: Record<string, string>;
}

export interface ProcessOptions {
  /** How the server is named in errors: its command line. */
  label: string;
  /** The longest line read from stdout, in bytes. */
  maxMessageBytes: number;
  /** How long `close()` waits after ending stdin, and again after SIGTERM. */
  graceMs: number;
}

export interface ProcessEvents {
  message(incoming: Incoming): void;
  /** A message over the size limit was dropped; `id` is the request it answered, if known. */
  oversized(id: RequestId | undefined, error: ResponseTooLargeError): void;
  /** Something on stdout that is not a JSON-RPC message; it was dropped. */
  warning(error: Error): void;
  stderr(line: string): void;
  /** The process ended without `close()` asking it to. */
  exit(error: ServerExitedError): void;
}

/** After the process exits, how long its output may still be arriving. */
const OUTPUT_AFTER_EXIT_MS = 250;
/** How much of a turn's writing is held for one write (a few requests), well under the pipe's. */
const BATCH_CHARS = 1024;
/** How often a process group is looked at while it is given time to end. */
const POLL_MS = 25;

export class ServerProcess {
  readonly pid: number;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #options: ProcessOptions;
  readonly #events: ProcessEvents;
  readonly #stderr: StderrTail;
  readonly #exited: Promise<ProcessExit>;
  readonly #forget: () => void;
  /** Why nothing more can be written, once that is so. */
  #dead: TransportError | undefined;
  #drained: Promise<void> | undefined;
  readonly #onDead = new Set<(error: TransportError) => void>();
  #closing: Promise<void> | undefined;
  /** Set while a turn writes: what it wrote after its first message, not yet sent. */
  #batch: string | undefined;

  private constructor(
    child: ChildProcessWithoutNullStreams,
    options: ProcessOptions,
    events: ProcessEvents,
  ) {
    this.#child = child;
    this.pid = child.pid!;
    this.#options = options;
    this.#events = events;
    this.#forget = dieWithParent(this.pid);
    this.#stderr = new StderrTail((line) => events.stderr(line));
    const lines = new LineSplitter(options.maxMessageBytes, {
      line: (text) => this.#receive(text),
      oversized: (head) => this.#oversized(head),
    });
    const stdout = child.stdout;
    // Decoded as it comes, once per chunk: a character split across chunks is kept whole.
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => lines.push(chunk));
    stdout.on('end', () => lines.end());
    stdout.on('error', () => {});
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.#stderr.push(chunk));
    child.stderr.on('end', () => this.#stderr.end());
    child.stderr.on('error', () => {});
    // A write to a pipe the server closed fails with EPIPE: the process is going, or gone.
    child.stdin.on('error', (error) => this.#die(this.#stdinClosed(error)));
    child.stdin.on('close', () => this.#die(this.#stdinClosed()));
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        void this.#afterExit(code, signal).then(resolve);
      });
    });
  }

  /** Starts the server; rejects with a TransportError when it cannot be started at all. */
  static start(
    command: ServerCommand,
    options: ProcessOptions,
    events: ProcessEvents,
  ): Promise<ServerProcess> {
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(command.command, [...command.args], {
          cwd: command.cwd,
          env: command.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          shell: false,
          windowsHide: true,
          // POSIX: a group of its own, so the server and all it starts can be signalled at once.
          detached: OWN_GROUP,
        }) as ChildProcessWithoutNullStreams;
      } catch (error) {
        reject(notStarted(error, options.label));
        return;
      }
      const onError = (error: Error) => reject(notStarted(error, options.label));
      child.once('error', onError);
      child.once('spawn', () => {
        child.off('error', onError);
        // Later errors (a failed kill) change nothing the exit does not already say.
        child.on('error', () => {});
        resolve(new ServerProcess(child, options, events));
      });
    });
  }

  /** Whether the process can still be written to. */
  get alive(): boolean {
    return this.#dead === undefined;
  }

  /** The last lines the server wrote to stderr. */
  get stderr(): readonly string[] {
    return this.#stderr.lines;
  }

  /**
   * Writes one message. Resolves once the pipe has taken it; waits while the pipe is full, and
   * fails at once (TransportError, `requestSent: false`) when the process can no longer read it.
   */
  async send(message: JsonRpcMessage, signal?: AbortSignal): Promise<void> {
    while (!this.write(message)) {
      if (this.#dead) throw this.#dead;
      await this.#whenDrained(signal);
    }
  }

  /**
   * Writes one message at once if the pipe has room; false when it is full (then `send` waits).
   * Throws when the process can no longer read it.
   */
  write(message: JsonRpcMessage): boolean {
    if (this.#dead) throw this.#dead;
    const stdin = this.#child.stdin;
    if (stdin.writableNeedDrain) return false;
    const line = `${JSON.stringify(message)}\n`;
    // The first message of a turn goes at once, so the server starts on it while the client is
    // still busy; the rest of the turn's go together at its end, one system call for all. The end
    // is a microtask: the calls a batch of answers resumes write theirs before it runs, and it
    // costs a fraction of a nextTick, which one call at a time pays on every call.
    if (this.#batch === undefined) {
      stdin.write(line);
      this.#batch = '';
      queueMicrotask(this.#flush);
    } else {
      this.#batch += line;
      // A few requests' worth is sent at once too: the server starts on them sooner, and the
      // next write sees the pipe's backpressure.
      if (this.#batch.length >= BATCH_CHARS) this.#flush();
    }
    return true;
  }

  /** Sends what was written this turn after its first message. */
  readonly #flush = (): void => {
    const text = this.#batch;
    this.#batch = undefined;
    if (text && !this.#dead) this.#child.stdin.write(text);
  };

  /**
   * Ends the server: stdin is closed (the binding's way to ask), then, if it has not exited
   * after `graceMs`, SIGTERM, then SIGKILL; then whatever it started and left behind is ended
   * the same way. Resolves when nothing of it is left. Never throws.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#die(
      new TransportError('the server process is being closed', {
        url: this.#options.label,
        requestSent: false,
      }),
    );
    const { graceMs } = this.#options;
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      this.#child.stdin.end();
      if (!(await this.#exitWithin(graceMs))) {
        signalTree(this.pid, 'SIGTERM');
        if (!(await this.#exitWithin(graceMs))) {
          signalTree(this.pid, 'SIGKILL');
          await this.#exitWithin(graceMs);
        }
      }
    }
    await this.#exited;
    this.#destroyStreams();
  }

  /** Resolves true when the process exits within `ms`, false when it does not. */
  async #exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(resolve, ms, false);
    });
    try {
      return await Promise.race([this.#exited.then(() => true as const), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The process exited: what it wrote just before may still be in the pipe, so its output is
   * read to the end (or for a moment, if something it started holds the pipe); then anything it
   * left running is ended, and, unless `close()` asked for it, the exit is reported.
   */
  async #afterExit(code: number | null, signal: NodeJS.Signals | null): Promise<ProcessExit> {
    const stdout = this.#child.stdout;
    if (!stdout.readableEnded && !stdout.destroyed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, OUTPUT_AFTER_EXIT_MS);
        function done() {
          clearTimeout(timer);
          stdout.off('end', done).off('close', done);
          resolve();
        }
        stdout.once('end', done).once('close', done);
      });
    }
    const exit: ProcessExit = { code, signal, stderr: [...this.#stderr.lines] };
    // A write from now on never reaches the server: safe to send again elsewhere.
    this.#die(new ServerExitedError(exit, { url: this.#options.label, requestSent: false }), true);
    if (!this.#closing)
      this.#events.exit(new ServerExitedError(exit, { url: this.#options.label }));
    await this.#endLeftovers();
    this.#destroyStreams();
    this.#forget();
    return exit;
  }

  /** What the server started and left running when it exited: SIGTERM, then SIGKILL. */
  async #endLeftovers(): Promise<void> {
    if (!OWN_GROUP || !treeAlive(this.pid)) return;
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      signalTree(this.pid, signal);
      const until = performance.now() + this.#options.graceMs;
      while (treeAlive(this.pid) && performance.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      if (!treeAlive(this.pid)) return;
    }
  }

  #destroyStreams(): void {
    this.#child.stdin.destroy();
    this.#child.stdout.destroy();
    this.#child.stderr.destroy();
  }

  #receive(text: string): void {
    const messages = parseMessages(text);
    if (typeof messages === 'string') {
      this.#events.warning(
        new MalformedMessageError(`${messages} on the server's stdout`, {
          url: this.#options.label,
          bodyExcerpt: excerpt(text),
        }),
      );
      return;
    }
    for (const incoming of messages) this.#events.message(incoming);
  }

  #oversized(head: string): void {
    const error = new ResponseTooLargeError('body', this.#options.maxMessageBytes, {
      url: this.#options.label,
      bodyExcerpt: excerpt(head),
    });
    this.#events.oversized(leadingId(head), error);
  }

  #whenDrained(signal: AbortSignal | undefined): Promise<void> {
    const stdin = this.#child.stdin;
    this.#drained ??= new Promise<void>((resolve, reject) => {
      const settle = () => {
        this.#drained = undefined;
        stdin.off('drain', onDrain);
        this.#onDead.delete(onDead);
      };
      const onDrain = () => {
        settle();
        resolve();
      };
      const onDead = (error: TransportError) => {
        settle();
        reject(error);
      };
      stdin.on('drain', onDrain);
      this.#onDead.add(onDead);
    });
    if (!signal) return this.#drained;
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#drained!.then(resolve, reject).finally(() =>
        signal.removeEventListener('abort', onAbort),
      );
    });
  }

  /** Nothing more can be written: every writer waiting for room is told why, at once. */
  #die(reason: TransportError, final = false): void {
    // The exit says more than a closed pipe that came first: it replaces it.
    if (this.#dead && !final) return;
    this.#dead = reason;
    for (const onDead of [...this.#onDead]) onDead(reason);
  }

  #stdinClosed(cause?: unknown): TransportError {
    return new TransportError("the server process's stdin is closed", {
      url: this.#options.label,
      cause,
      requestSent: false,
    });
  }
}

function notStarted(error: unknown, label: string): TransportError {
  const code = (error as NodeJS.ErrnoException).code;
  return new TransportError(`could not start the server process (${code ?? String(error)})`, {
    url: label,
    cause: error,
    requestSent: false,
    // A missing or unrunnable program stays so: trying again changes nothing.
    retryable: false,
  });
}
