/**
 * One Redis connection for the stores, and the one rule every command follows: it answers within
 * `timeoutMs` or fails with a StoreUnavailableError, so a Redis that is down or slow costs a call
 * a bounded wait and a warning, never the call. Reconnecting is node-redis's: commands sent
 * while it reconnects wait in its offline queue, within the same bound. Only the first
 * connection gets longer (`CONNECT_MS`): a worker starting on a busy machine should not count
 * its own start-up against Redis.
 */
import { createClient, type RedisClientType } from '@redis/client';
import { StoreUnavailableError } from '@toolwire/client';

/** What the stores need of a node-redis client: raw commands, each with its own timeout. */
export type RedisCommands = Pick<RedisClientType, 'sendCommand'>;

export interface ConnectionOptions {
  /** `redis://` or `rediss://` URL of the server; ignored when `client` is given. */
  url?: string | undefined;
  /** A node-redis client the application made and connected; the stores never close it. */
  client?: RedisCommands | undefined;
  timeoutMs: number;
}

/** The longest the first connection may take (node-redis's socket connect timeout). */
const CONNECT_MS = 2_000;

export class Connection {
  readonly timeoutMs: number;
  readonly #commands: RedisCommands;
  readonly #owned: RedisClientType | undefined;
  /** Settles when the first connection is made or has failed; gone once it has. */
  #firstAttempt: Promise<void> | undefined;

  constructor(options: ConnectionOptions) {
    this.timeoutMs = options.timeoutMs;
    if (options.client) {
      this.#commands = options.client;
      return;
    }
    const owned = createClient({
      url: options.url ?? 'redis://127.0.0.1:6379',
      socket: { connectTimeout: Math.max(options.timeoutMs, CONNECT_MS) },
    }) as RedisClientType;
    // Errors while Redis is away are node-redis's to recover from; a command that needs the
    // connection meanwhile fails on its own timeout, and that failure is what gets reported.
    owned.on('error', () => {});
    this.#firstAttempt = new Promise<void>((resolve) => {
      const settled = () => {
        owned.off('ready', settled).off('error', settled);
        this.#firstAttempt = undefined;
        resolve();
      };
      owned.on('ready', settled).on('error', settled);
    });
    owned.connect().catch(() => {});
    this.#owned = owned;
    this.#commands = owned;
  }

  /**
   * Sends one command; `operation` names it in errors (`handles.save`), never its arguments.
   * node-redis bounds a command only until it is written, and a Redis that has stopped answering
   * holds a written one for ever: the bound here covers both. A command not yet written when time
   * is up is dropped from node-redis's queue; a written one is left to settle unheard.
   */
  async run<T>(operation: string, args: readonly string[]): Promise<T> {
    if (this.#firstAttempt) await this.#firstAttempt;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(
          new StoreUnavailableError(operation, `no answer from Redis within ${this.timeoutMs} ms`),
        );
      }, this.timeoutMs);
    });
    const command = this.#commands.sendCommand<T>(args, { abortSignal: abort.signal });
    try {
      return await Promise.race([command, late]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new StoreUnavailableError(operation, `Redis failed (${detail})`, { cause: error });
    } finally {
      clearTimeout(timer);
      command.catch(() => {});
    }
  }

  /** Closes the connection the stores made; one the application gave stays open. */
  async close(): Promise<void> {
    const owned = this.#owned;
    if (!owned?.isOpen) return;
    if (owned.isReady) await owned.close();
    else owned.destroy();
  }
}
