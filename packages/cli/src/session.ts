/**
 * One command's connection: the client for the target, with the terminal's handlers for the
 * server's questions, connected before the command runs (a failure then means the server is out
 * of reach) and closed after it, whatever happened. Ctrl-C aborts what is running, which tells the
 * server to stop; a second Ctrl-C leaves at once.
 */
import {
  type ClientOptions,
  createMcpClient,
  DIALECTS,
  LEGACY_VERSIONS,
  type McpClient,
  MODERN_VERSIONS,
} from '@toolwire/client';
import packageJson from '../package.json' with { type: 'json' };
import { authOptions } from './credentials.ts';
import { CliError, EXIT, Interrupted, UsageError } from './exit-codes.ts';
import { exitCodeFor } from './failure.ts';
import { questionHandlers } from './questions/index.ts';
import type { Target } from './target.ts';
import type { Terminal } from './terminal.ts';

/** The options every command that talks to a server takes. */
export interface ConnectionOptions {
  protocol?: string | undefined;
  dialect?: string | undefined;
  timeout?: string | undefined;
  root?: string[] | undefined;
  yes?: boolean | undefined;
  /** `skills`, `skill`: declare the skills extension. */
  skills?: boolean | undefined;
  /** `login`: the user may be sent to the authorization server (in a browser, unless false). */
  login?: { browser: boolean } | undefined;
}

export interface Session {
  client: McpClient;
  target: Target;
  terminal: Terminal;
  /** Aborted by Ctrl-C. */
  signal: AbortSignal;
}

/** How long `login` waits for the user to sign in. */
const LOGIN_MS = 600_000;

export async function withSession<T>(
  target: Target,
  options: ConnectionOptions,
  terminal: Terminal,
  run: (session: Session) => Promise<T>,
): Promise<T> {
  const client = await openClient(target, options, terminal);
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    terminal.endLive();
    terminal.say(
      terminal.err('yellow', 'Interrupted: telling the server to stop (Ctrl-C again to quit now)'),
    );
    controller.abort(new Interrupted());
  };
  process.on('SIGINT', onInterrupt);
  try {
    try {
      // Signing in takes a person some time.
      await client.connect({
        signal: controller.signal,
        ...(options.login ? { timeoutMs: LOGIN_MS, maxTimeoutMs: LOGIN_MS } : {}),
      });
    } catch (error) {
      throw new CliError(exitCodeFor(error, true), (error as Error).message, { cause: error });
    }
    return await run({ client, target, terminal, signal: controller.signal });
  } finally {
    process.off('SIGINT', onInterrupt);
    terminal.endLive();
    await client.close();
  }
}

async function openClient(
  target: Target,
  options: ConnectionOptions,
  terminal: Terminal,
): Promise<McpClient> {
  const protocols: readonly string[] = [
    'auto',
    'modern',
    'legacy',
    ...MODERN_VERSIONS,
    ...LEGACY_VERSIONS,
  ];
  if (options.protocol !== undefined && !protocols.includes(options.protocol)) {
    throw new UsageError(`--protocol takes ${protocols.join(', ')}; got "${options.protocol}"`);
  }
  if (options.dialect !== undefined && !(DIALECTS as readonly string[]).includes(options.dialect)) {
    throw new UsageError(`--dialect takes ${DIALECTS.join(', ')}; got "${options.dialect}"`);
  }
  const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout);
  const common: ClientOptions = {
    clientInfo: { name: 'toolwire-cli', version: packageJson.version },
    ...(options.protocol === undefined
      ? {}
      : { protocolVersion: options.protocol as ClientOptions['protocolVersion'] & string }),
    ...(options.dialect === undefined
      ? {}
      : { dialect: options.dialect as ClientOptions['dialect'] & string }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(options.skills === true ? { skills: true } : {}),
    ...questionHandlers(terminal, {
      yes: options.yes === true,
      roots: options.root && options.root.length > 0 ? options.root : [process.cwd()],
    }),
  };
  try {
    if (target.kind === 'stdio') {
      // The server gets the safe variables the client passes on, plus the entry's own.
      const { command, args, env, cwd } = target;
      return createMcpClient({ command, args, env, ...(cwd ? { cwd } : {}) }, common);
    }
    const auth = await authOptions(target.url, target.headers, terminal, options.login);
    return createMcpClient(target.url, {
      ...common,
      headers: target.headers,
      ...(auth ? { auth } : {}),
      ...(target.transport === 'sse' ? { dialect: 'mcp-sse' } : {}),
    });
  } catch (error) {
    // The client's TypeError names the option that is wrong.
    if (error instanceof TypeError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
}
