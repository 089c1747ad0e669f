/**
 * Where output goes, and whether a person is there. Results go to stdout; what happens along the
 * way (progress, task status, notes) goes to stderr, so a pipe gets the result alone. Colours only
 * on a terminal that takes them (NO_COLOR, FORCE_COLOR and `--no-color` are honoured); prompts and
 * live lines only when stdin and stderr are both terminals. In JSON mode stdout carries one
 * document and stderr stays quiet unless a person is asked something.
 *
 * Every line goes through here, and every string in it loses its control characters (see
 * printable.ts): the only escape codes that reach a stream are the styles this class adds itself,
 * which travel as Styled parts a string cannot forge.
 */
import { styleText } from 'node:util';
import type { Spinner } from 'yocto-spinner';
import { jsonText, printable } from './printable.ts';

type Style = Parameters<typeof styleText>[0];

/** Text styled by a Terminal: its escape codes are ours, its words were made printable first. */
class Styled {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export type { Styled };

/** A piece of a line: a string (anyone's, so cleaned) or text the terminal styled. */
export type Part = string | Styled;

export interface Streams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface TerminalOptions {
  json?: boolean;
  /** `--no-color`. */
  color?: boolean;
}

export class Terminal {
  readonly streams: Streams;
  /** A person is at a terminal: questions can be asked and lines redrawn. */
  readonly interactive: boolean;
  readonly json: boolean;
  /**
   * Lines are redrawn in place. Not under CI, even on a terminal: a log keeps every frame there
   * (the spinner library draws frames as lines when `CI` is set, so the two must agree).
   */
  readonly #redraws: boolean;
  readonly #colourOut: boolean;
  readonly #colourErr: boolean;
  #live: Spinner | undefined;
  /** What the live line shows, or undefined when there is none. */
  #liveText: string | undefined;
  #spinner: Promise<typeof import('yocto-spinner')> | undefined;
  #asking: Promise<unknown> = Promise.resolve();

  constructor(streams: Streams, options: TerminalOptions = {}) {
    this.streams = streams;
    this.json = options.json === true;
    this.interactive =
      streams.stdin.isTTY === true &&
      streams.stderr.isTTY === true &&
      process.env['TERM'] !== 'dumb';
    this.#redraws = this.interactive && !('CI' in process.env);
    this.#colourOut = options.color !== false && takesColour(streams.stdout);
    this.#colourErr = options.color !== false && takesColour(streams.stderr);
  }

  /** The width to fit tables to; a pipe gets everything. */
  get columns(): number {
    return this.streams.stdout.isTTY === true ? this.streams.stdout.columns || 80 : Infinity;
  }

  /** A result line on stdout (nothing in JSON mode, which prints one document instead). */
  print(...parts: Part[]): void {
    if (!this.json) this.streams.stdout.write(`${line(parts)}\n`);
  }

  /** Text as it comes (a streamed part of a result), on stdout; nothing in JSON mode. */
  write(text: string): void {
    if (!this.json) this.streams.stdout.write(printable(text));
  }

  /** The one JSON document of JSON mode. */
  printJson(value: unknown): void {
    this.streams.stdout.write(`${jsonText(value)}\n`);
  }

  /** A line about what is happening, on stderr; JSON mode keeps quiet. */
  say(...parts: Part[]): void {
    if (!this.json) this.tell(...parts);
  }

  /** A line on stderr in every mode: what a person must see even with --json. */
  tell(...parts: Part[]): void {
    this.streams.stderr.write(`${line(parts)}\n`);
  }

  /** A failure, on stderr, in every mode (JSON mode also puts it in the document). */
  fail(...parts: Part[]): void {
    this.tell(this.err('red', '✖'), ' ', ...parts);
  }

  /** Styles text for stdout, when stdout takes colours. */
  out(style: Style, text: string): Styled {
    return new Styled(
      this.#colourOut
        ? styleText(style, printable(text), { validateStream: false })
        : printable(text),
    );
  }

  /** Styles text for stderr, when stderr takes colours. */
  err(style: Style, text: string): Styled {
    return new Styled(
      this.#colourErr
        ? styleText(style, printable(text), { validateStream: false })
        : printable(text),
    );
  }

  /**
   * Shows `text` on the live line (a spinner on stderr), or, without a person there, as a plain
   * line when `plain` is given. Lines written meanwhile go above it.
   */
  async live(shown: string, plain?: string): Promise<void> {
    const text = printable(shown);
    if (!this.#redraws || this.json) {
      if (plain !== undefined) this.say(plain);
      return;
    }
    this.#liveText = text;
    if (this.#live) {
      this.#live.text = text;
      return;
    }
    this.#spinner ??= import('yocto-spinner');
    const { default: yoctoSpinner } = await this.#spinner;
    // The line may have been put away while the module loaded, or started by an earlier call.
    if (this.#liveText === undefined) return;
    const started = this.#live as Spinner | undefined;
    if (started) {
      started.text = this.#liveText;
      return;
    }
    // Ctrl-C is ours to handle (it cancels the call on the server), not the spinner's.
    this.#live = yoctoSpinner({ stream: this.streams.stderr, handleSignals: false });
    this.#live.start(this.#liveText);
  }

  /** Clears the live line. */
  endLive(): void {
    this.#liveText = undefined;
    this.#live?.stop();
    this.#live = undefined;
  }

  /**
   * Runs `ask` with the terminal to itself: one question at a time (a server may ask several at
   * once), with the live line put away while it runs and brought back after.
   */
  ask<T>(ask: () => Promise<T>): Promise<T> {
    const run = this.#asking.then(async () => {
      const text = this.#liveText;
      this.endLive();
      try {
        return await ask();
      } finally {
        if (text !== undefined) await this.live(text);
      }
    });
    this.#asking = run.catch(() => undefined);
    return run;
  }
}

/** The parts of a line as written: strings made printable, styled text as the terminal made it. */
function line(parts: readonly Part[]): string {
  return parts.map((part) => (part instanceof Styled ? part.text : printable(part))).join('');
}

/** Whether Node would colour this stream: a terminal with colours, or FORCE_COLOR; not NO_COLOR. */
function takesColour(stream: NodeJS.WriteStream): boolean {
  return styleText('red', 'x', { stream }) !== 'x';
}
