/**
 * A real terminal for a command, driven like a person would: tmux runs it in a pane of a server
 * of its own, keys are sent with send-keys and the screen read with capture-pane. The pane stays
 * after the command exits, so its exit status can be read.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Panes stay when their command exits (so its status can be read), from the very start. */
const CONFIG = join(tmpdir(), `toolwire-tmux-${process.pid}.conf`);
writeFileSync(CONFIG, 'set -g remain-on-exit on\nset -g history-limit 5000\n');

const { CI: _ci, ...WITHOUT_CI } = process.env;

export class TmuxTerminal {
  readonly #socket = `toolwire-test-${randomUUID()}`;
  /** Where the command's exit status is written: tmux's own pane_dead_status is not always set. */
  readonly #statusFile = join(tmpdir(), `${this.#socket}.status`);

  private constructor() {}

  /** Starts `argv` in a new 120x40 terminal, with `env` added to this process's environment. */
  static start(
    argv: readonly string[],
    options: { cwd?: string; env?: Record<string, string> } = {},
  ) {
    const terminal = new TmuxTerminal();
    // A shell that outlives Ctrl-C (the command itself, Node, restores the default for SIGINT)
    // and writes down how the command ended.
    const command = [
      'sh',
      '-c',
      `trap '' INT; "$@"; echo "$?" > ${quote(terminal.#statusFile)}`,
      'sh',
      ...argv,
    ]
      .map(quote)
      .join(' ');
    const env = Object.entries(options.env ?? {}).flatMap(([key, value]) => [
      '-e',
      `${key}=${value}`,
    ]);
    terminal.#tmux(
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      '120',
      '-y',
      '40',
      ...env,
      ...(options.cwd ? ['-c', options.cwd] : []),
      command,
    );
    return terminal;
  }

  /** Types text (literally) into the terminal. */
  type(text: string): void {
    this.#tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Presses keys by tmux's names: Enter, Down, Escape, C-c, BSpace. */
  press(...keys: string[]): void {
    this.#tmux('send-keys', '-t', 'main', ...keys);
  }

  /** What the screen shows, and what scrolled off it. */
  screen(): string {
    return this.#tmux('capture-pane', '-p', '-J', '-S', '-2000', '-t', 'main');
  }

  /** Waits until `condition` holds; on time-out the error shows the screen. */
  async until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline)
        throw new Error(`${what} never happened; the terminal shows:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits until the screen matches `pattern`; the bound only stops a hung test. */
  async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) {
        return screen;
      }
      if (Date.now() > deadline) {
        throw new Error(`the terminal never showed ${String(pattern)}; it shows:\n${screen}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The command's exit status once it has exited (128 + the signal, when a signal ended it). */
  async exitStatus(timeoutMs = 15_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const status = readFileSync(this.#statusFile, 'utf8').trim();
        if (status !== '') return Number(status);
      } catch {
        // Not written yet: the command is still running.
      }
      if (Date.now() > deadline) throw new Error(`still running:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    rmSync(this.#statusFile, { force: true });
    try {
      this.#tmux('kill-server');
    } catch {
      // Already gone.
    }
  }

  #tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.#socket, '-f', CONFIG, ...args], {
      encoding: 'utf8',
      // A person's terminal, not a CI log: the tmux server passes its environment on to panes.
      env: WITHOUT_CI,
    });
  }
}

function quote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
