/**
 * `toolwire add NAME --config FILE`: a registry entry (or a card) written into an mcpServers file
 * an editor reads. Inputs come from `--input`, else are asked for in a terminal; a secret is never
 * written: its place holds an `${ENV}` reference, read from the environment when the file is.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { InputRequest } from '@toolwire/client';
import {
  type DiscoveredTargetOptions,
  inputsOf,
  isCardUrl,
  sourceOf,
} from '../discovered-target.ts';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import { printable } from '../printable.ts';
import type { Terminal } from '../terminal.ts';

export interface AddOptions extends DiscoveredTargetOptions {
  config?: string | undefined;
  /** The key the server is written under; by default the last part of its name. */
  as?: string | undefined;
  force?: boolean | undefined;
}

/** The environment variable a secret input is left to: its name, upper case, `_` for the rest. */
export function envNameOf(request: InputRequest): string {
  return request.name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

export async function addCommand(
  words: string[],
  options: AddOptions,
  terminal: Terminal,
): Promise<ExitCode> {
  const [name, ...rest] = words;
  if (name === undefined) throw new UsageError('name a server: toolwire add NAME --config FILE');
  if (rest.length > 0) throw new UsageError(`add takes one server, got ${words.join(' ')}`);
  if (options.config === undefined)
    throw new UsageError('add needs --config FILE, the mcpServers file to write');
  const word = name.startsWith('registry:') || isCardUrl(name) ? name : `registry:${name}`;
  const source = await sourceOf(word, options);
  const given = inputsOf(options.input, {});
  const asked = new Set<string>();
  const inputs = async (request: InputRequest): Promise<string | undefined> => {
    if (request.spec.isSecret) {
      asked.add(envNameOf(request));
      return `\${${envNameOf(request)}}`;
    }
    return given(request) ?? (terminal.interactive ? ask(request, terminal) : undefined);
  };
  const { connectionOf } = await import('@toolwire/client');
  const connection = await connectionOf(source, { inputs });
  const entry =
    connection.kind === 'stdio'
      ? {
          command: connection.command,
          args: connection.args,
          ...(Object.keys(connection.env).length > 0 ? { env: connection.env } : {}),
        }
      : {
          type: connection.options.dialect === 'mcp-sse' ? 'sse' : 'http',
          url: connection.url,
          ...(Object.keys(connection.headers).length > 0 ? { headers: connection.headers } : {}),
        };
  const key = options.as ?? serverKey(word);
  await writeEntry(options.config, key, entry, options.force === true);
  if (terminal.json)
    terminal.printJson({ config: options.config, server: key, entry, environment: [...asked] });
  else {
    terminal.print(`added ${key} to ${options.config}`);
    if (asked.size > 0)
      terminal.say(`set ${[...asked].join(', ')} in the environment the editor starts it in`);
  }
  return EXIT.ok;
}

function serverKey(word: string): string {
  const name = word.startsWith('registry:')
    ? word.slice('registry:'.length)
    : new URL(word).hostname;
  return name.slice(name.lastIndexOf('/') + 1) || name;
}

async function ask(request: InputRequest, terminal: Terminal): Promise<string | undefined> {
  const prompts = await import('@clack/prompts');
  const common = { input: terminal.streams.stdin, output: terminal.streams.stderr };
  const spec = request.spec;
  const message = printable(
    `${request.name}${spec.isRequired ? '' : ' (optional)'}${spec.description ? `: ${spec.description}` : ''}`,
  );
  const value =
    spec.choices && spec.choices.length > 0
      ? await prompts.select({
          ...common,
          message,
          options: spec.choices.map((c) => ({ value: c, label: printable(c) })),
        })
      : await prompts.text({
          ...common,
          message,
          ...(spec.default
            ? { placeholder: printable(spec.default), defaultValue: spec.default }
            : {}),
        });
  if (prompts.isCancel(value)) throw new UsageError('cancelled');
  return value === '' ? undefined : String(value);
}

/** The file with `entry` under its servers; other keys and servers kept as they were. */
async function writeEntry(file: string, key: string, entry: object, force: boolean): Promise<void> {
  let document: Record<string, unknown> = {};
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text !== undefined) {
    try {
      document = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new UsageError(`${file} is not JSON: not changed`);
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      throw new UsageError(`${file} is not a JSON object: not changed`);
    }
  }
  // VS Code keeps its servers under `servers`; the others under `mcpServers`.
  const listKey = 'servers' in document && !('mcpServers' in document) ? 'servers' : 'mcpServers';
  const servers = (document[listKey] ?? {}) as Record<string, unknown>;
  if (Object.hasOwn(servers, key) && !force) {
    throw new UsageError(
      `${file} already has a server named ${key}: --force replaces it, --as NAME adds it under another name`,
    );
  }
  document[listKey] = { ...servers, [key]: entry };
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(document, null, 2)}\n`);
  await rename(temporary, file);
}
