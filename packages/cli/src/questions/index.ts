/**
 * The client's handlers for the server's questions, put to the person at the terminal one at a
 * time. Without a terminal a question fails the call with UnansweredError, which says how to
 * answer it, except a form whose required fields all have defaults under `--yes`.
 */
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientOptions, Root } from '@toolwire/client';
import { UnansweredError } from '../exit-codes.ts';
import type { Terminal } from '../terminal.ts';
import { acceptDefaults, askForm, fieldsWithoutDefaults } from './form.ts';
import { askSampling } from './sampling.ts';
import { askUrl } from './url.ts';

export interface QuestionOptions {
  /** Accept forms with their defaults when no one can be asked. */
  yes: boolean;
  /** The directories offered as roots. */
  roots: readonly string[];
}

export function questionHandlers(
  terminal: Terminal,
  options: QuestionOptions,
): Pick<ClientOptions, 'onElicitation' | 'onSampling' | 'samplingTools' | 'roots'> {
  const nobodyThere = (what: string, hint = ''): never => {
    throw new UnansweredError(
      `the server asked ${what}, and there is no terminal to ask it in: run the command in a terminal${hint}`,
    );
  };
  return {
    onElicitation: (request, context) => {
      if (request.mode === 'url') {
        if (!terminal.interactive) nobodyThere(`you to open ${request.url}`);
        return terminal.ask(() => askUrl(request, context, terminal));
      }
      if (!terminal.interactive) {
        const defaults = options.yes ? acceptDefaults(request) : undefined;
        if (defaults) return defaults;
        const missing = fieldsWithoutDefaults(request);
        nobodyThere(
          `for a form ("${request.message}")`,
          options.yes
            ? ` (--yes takes the defaults, but ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} none)`
            : ', or pass --yes to accept its defaults',
        );
      }
      return terminal.ask(() => askForm(request, context, terminal));
    },
    samplingTools: true,
    onSampling: (request, context) => {
      if (!terminal.interactive) nobodyThere("for a model's answer (sampling)");
      return terminal.ask(() => askSampling(request, context, terminal));
    },
    roots: rootsOf(options.roots),
  };
}

/** Directories as `file://` roots, named after their last segment. */
export function rootsOf(paths: readonly string[]): Root[] {
  return paths.map((path) => {
    const absolute = resolve(path);
    return { uri: pathToFileURL(absolute).href, name: basename(absolute) || absolute };
  });
}
