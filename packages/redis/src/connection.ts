/**
 * One Redis connection for the stores, and the one rule every command follows: it answers within
 * `timeoutMs` or fails with a StoreUnavailableError, so a Redis that is down or slow costs a call
 * a bounded wait and a warning, never the call. Reconnecting is node-redis's: commands sent
 * while it reconnects wait in its offline queue, within the same bound.
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

export class Connection {
  readonly timeoutMs: number;
  readonly #commands: RedisCommands;
  readonly #owned: RedisClientType | undefined;

  constructor(options: ConnectionOptions) {
    this.timeoutMs = options.timeoutMs;
    if (options.client) {
      this.#commands = options.client;
      return;
    }
    const owned = createClient({
      url: options.url ?? 'redis://127.0.0.1:6379',
      socket: { connectTimeout: Math.max(options.timeoutMs, 1_000) },
    }) as RedisClientType;
    // Errors while Redis is away are node-redis's to recover from; a command that needs the
    // connection meanwhile fails on its own timeout, and that failure is what gets reported.
    owned.on('error', () => {});
    owned.connect().catch(() => {});
    this.#owned = owned;
    this.#commands = owned;
  }

  /** Sends one command; `operation` names it in errors (`handles.save`), never its arguments. */
  async run<T>(operation: string, args: readonly string[]): Promise<T> {
    try {
      return await this.#commands.sendCommand<T>(args, { timeout: this.timeoutMs });
    } catch (error) {
      const detail =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer from Redis within ${this.timeoutMs} ms`
          : `Redis failed (${error instanceof Error ? error.message : String(error)})`;
      throw new StoreUnavailableError(operation, detail, { cause: error });
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
