/**
 * The reference server over standard streams (the stdio binding): one JSON-RPC message per line
 * on stdin and stdout, logs on stderr. The client's first words choose the era, as a dual-era
 * server lets them: `initialize` opens a legacy session that lasts as long as the process, and a
 * request carrying the 2026-07-28 `_meta` (`server/discover` first) is served statelessly, its
 * questions coming back as `input_required` results. Faults make it misbehave as local servers do.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { defaultRun, execute } from '../answer.ts';
import type { MessageSink } from '../context.ts';
import { type CoreOptions, createCore } from '../core.ts';
import {
  classifyMessage,
  ErrorCode,
  errorMessage,
  isObject,
  type JsonObject,
  notificationMessage,
  type RpcIncoming,
  type RpcRequest,
  resultMessage,
} from '../jsonrpc.ts';
import { isModernMessage } from '../modern/envelope.ts';
import { receiveNotification } from '../post.ts';
import { initializeResult, negotiateVersion, requestedVersion } from '../protocol.ts';
import { Session } from '../session.ts';
import { CRASH_EXIT_CODE, type StdioFaults } from './faults.ts';
import { ModernStdio } from './modern.ts';

/** Which eras the process speaks: both (the default), or one. */
export type StdioEra = 'dual' | 'legacy' | 'modern';

export interface StdioServerOptions extends CoreOptions {
  era?: StdioEra;
  faults?: StdioFaults;
  /** Ends the process, for the faults that crash it. The bin passes `process.exit`. */
  exit?: (code: number) => void;
  /** Where the server's log lines go (the bin: stderr). */
  log?: (line: string) => void;
}

export interface StdioServer {
  /** Resolves when stdin has ended (unless the server is told to ignore that) or on `close()`. */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

export function serveStdio(
  input: Readable,
  output: Writable,
  options: StdioServerOptions = {},
): StdioServer {
  const era = options.era ?? 'dual';
  const faults = options.faults ?? {};
  const log = options.log ?? (() => {});
  const exit = options.exit ?? (() => {});
  const closing = new AbortController();
  const core = createCore(options, closing.signal);
  let closed = false;

  const write = (message: JsonObject): boolean => {
    if (closed) return false;
    if (faults.garbage && 'id' in message && !('method' in message)) {
      output.write('garbage: this line is not JSON-RPC\n');
    }
    output.write(`${JSON.stringify(message)}\n`);
    return true;
  };
  const sink: MessageSink = {
    get finished() {
      return closed;
    },
    send: (message) => write(message),
  };
  const modern = new ModernStdio(core, era === 'modern', write);
  let session: Session | undefined;

  const initialize = (request: RpcRequest): void => {
    if (session !== undefined) {
      write(errorMessage(request.id, ErrorCode.InvalidRequest, 'Session already initialized'));
      return;
    }
    let version: string;
    try {
      version = negotiateVersion(requestedVersion(request.params), core.versions);
    } catch (error) {
      write(errorMessage(request.id, ErrorCode.InvalidParams, (error as Error).message));
      return;
    }
    const params = isObject(request.params) ? request.params : {};
    session = new Session(
      'stdio',
      version,
      isObject(params['capabilities']) ? params['capabilities'] : {},
    );
    session.useChannel(sink);
    core.sessions.add(session);
    write(resultMessage(request.id, initializeResult(version)));
  };

  const legacy = async (message: RpcIncoming): Promise<void> => {
    if (message.kind === 'notification') return receiveNotification(core, session, message);
    if (message.kind === 'response') return session?.deliverResponse(message);
    if (message.method === 'initialize') return initialize(message);
    if (session === undefined) {
      if (faults.exitOnUnknown) {
        log(`${message.method} before initialize: exiting, as some servers do`);
        return exit(1);
      }
      if (faults.silentProbe && message.method === 'server/discover') return;
      const unknown = message.method === 'server/discover';
      write(
        errorMessage(
          message.id,
          unknown ? ErrorCode.MethodNotFound : ErrorCode.InvalidRequest,
          unknown ? `Method not found: ${message.method}` : 'Send initialize first',
        ),
      );
      return;
    }
    const response = await execute(core, { session, run: defaultRun(session) }, message, sink);
    if (response !== undefined) write(response);
  };

  const receive = async (line: string): Promise<void> => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      write(errorMessage(null, ErrorCode.ParseError, 'Parse error: the line is not JSON'));
      return;
    }
    const message = classifyMessage(value);
    if (message === undefined) {
      write(errorMessage(null, ErrorCode.InvalidRequest, 'Invalid Request: not JSON-RPC 2.0'));
      return;
    }
    if (message.kind === 'request') misbehave(message);
    if (closed) return;
    if (message.kind === 'notification' && message.method === 'notifications/cancelled') {
      // What the client abandoned, for tests watching stderr (nothing else shows it on stdio).
      const params = isObject(message.params) ? message.params : {};
      log(`cancelled ${JSON.stringify(params['requestId'])}: ${String(params['reason'] ?? '')}`);
    }
    const modernEra =
      era === 'modern' ||
      (era === 'dual' &&
        (isModernMessage(undefined, value) ||
          (message.kind === 'request' && message.method === 'server/discover')));
    if (modernEra && !(faults.silentProbe && isProbe(message))) return modern.receive(message);
    if (era !== 'modern') return legacy(message);
  };

  /** The faults that hit before a request is served. */
  const misbehave = (request: RpcRequest): void => {
    const params = isObject(request.params) ? request.params : {};
    if (faults.crashOn !== undefined && request.method === 'tools/call') {
      if (params['name'] === faults.crashOn) {
        log(`crashing on purpose in the middle of ${faults.crashOn}`);
        exit(CRASH_EXIT_CODE);
      }
    }
    if (faults.hugeLine !== undefined && request.method === 'tools/list') {
      output.write(
        `${JSON.stringify(notificationMessage('notifications/message', { level: 'info', data: 'x'.repeat(faults.hugeLine) }))}\n`,
      );
    }
  };

  let end: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const close = async (): Promise<void> => {
    if (closed) return;
    // Open subscriptions get their final response while the pipe is still ours.
    modern.closeAll();
    closed = true;
    closing.abort();
    lines.close();
    for (const each of core.sessions.all()) each.terminate();
    core.sessions.clear();
    core.statelessInFlight.abortAll();
    core.tasks.clear();
    end();
  };

  if (faults.garbage) output.write('reference server starting (this line is not JSON-RPC)\n');
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    receive(line).catch((error: unknown) => log(`internal error: ${String(error)}`));
  });
  lines.on('close', () => {
    if (faults.ignoreEof) {
      log('stdin ended; ignoring it, as some servers do');
      return;
    }
    void close();
  });
  return { ended, close };
}

function isProbe(message: RpcIncoming): boolean {
  return message.kind === 'request' && message.method === 'server/discover';
}
