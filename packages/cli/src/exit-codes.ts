/**
 * What the exit status tells a script, and which status an error earns. A script can tell its
 * own mistakes (2) from an unreachable server (3), a server that refused (4), a question nobody
 * was there to answer (5) and a tool that ran and failed (1). Nothing here loads the client, so
 * the argument parser can use it at start-up.
 */
export const EXIT = {
  /** Done, and the tool (if one was called) succeeded. */
  ok: 0,
  /** The tool ran and reported a failure (`isError`). */
  toolFailed: 1,
  /** The command line or a config file is wrong: unknown option, tool or argument. */
  usage: 2,
  /** The server could not be reached, spoke no dialect we know, or refused the credentials. */
  connection: 3,
  /** The server answered with an error (invalid params, a failed task, a missing resource). */
  server: 4,
  /** The server asked a question no one could answer: no terminal, or the user declined it. */
  needsInput: 5,
  /** Ctrl-C (128 + SIGINT), after the server was told to stop. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI raises itself, with the exit status it means. */
export class CliError extends Error {
  override readonly name: string = 'CliError';
  readonly exitCode: ExitCode;
  constructor(exitCode: ExitCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

/** The command line (or a config file it names) is wrong. */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  constructor(message: string, options?: ErrorOptions) {
    super(EXIT.usage, message, options);
  }
}

/**
 * The server asked something the CLI could not put to a person (no terminal, and `--yes` does not
 * cover it), or the person declined. Thrown from a handler, it reaches the caller as the cause of
 * the client's HandlerError.
 */
export class UnansweredError extends CliError {
  override readonly name = 'UnansweredError';
  constructor(message: string) {
    super(EXIT.needsInput, message);
  }
}

/** Ctrl-C, as the reason an interrupted call was aborted. */
export class Interrupted extends CliError {
  override readonly name = 'Interrupted';
  constructor() {
    super(EXIT.interrupted, 'interrupted');
  }
}

/** The first error of class `type` in `error`'s cause chain, `error` included. */
export function causeOfType<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return undefined;
}
