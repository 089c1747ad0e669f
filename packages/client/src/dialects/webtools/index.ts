/**
 * Webtools (seed 004, second half): a URL that describes itself with GET and runs actions with
 * POST. Each action is a tool; `config` comes from the application; one `sessionId` lasts the
 * client's life. The metadata in use is pinned: its version goes on every POST, and a digest of
 * it is compared with what the application locked in (or what this client first saw), so a
 * changed description is refused, or reported, before it reaches a model.
 */
import { randomUUID } from 'node:crypto';
import type { Deadline } from '../../core/deadline.ts';
import { MetadataChangedError, NotSupportedError, ToolNotFoundError } from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { Outcome } from '../../core/outcome.ts';
import type { Tool } from '../../core/types.ts';
import type { ChannelEvents } from '../../wire/channels/channel.ts';
import type { Dialect, Operation, SendContext, ServerDescription } from '../dialect.ts';
import { configFor } from './config.ts';
import { digestOf } from './digest.ts';
import { execute } from './envelope.ts';
import type { HttpConfig } from './http.ts';
import { fetchMetadata, toolsOf, type WebtoolMetadata } from './metadata.ts';

export type { WebtoolAction, WebtoolMetadata } from './metadata.ts';

/** What the application says about a webtool. Every field is optional. */
export interface WebtoolsOptions {
  /** Configuration for the webtool (credentials, defaults), merged over its `defaultConfig`. */
  config?: JsonObject;
  /** Pins a version: its metadata is fetched (`GET {url}/{version}`) and it is sent on every POST. */
  version?: string;
  /** Metadata the application stored and reviewed (lock-in); its version is pinned. */
  metadata?: WebtoolMetadata;
  /** The digest of metadata the application reviewed (`serverInfo.digest` of an earlier client). */
  digest?: string;
  /**
   * What to do when the metadata differs from the locked-in one (or, without one, from the first
   * this client saw): `'refuse'` fails with MetadataChangedError; `'report'` emits it as a
   * `warning` event and goes on with the server's metadata.
   * @default 'refuse'
   */
  onChange?: 'refuse' | 'report';
  /** The `sessionId` sent with every POST. @default a random UUID per client */
  sessionId?: string;
}

export interface WebtoolsConfig extends HttpConfig {
  options: WebtoolsOptions;
}

/** The revision of the Webtools specification this dialect implements. */
export const WEBTOOLS_VERSION = '2025-06-30';

const EMPTY_LISTS: Record<string, string> = {
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
};

export class WebtoolsDialect implements Dialect {
  readonly name = 'webtools';
  server: ServerDescription;
  readonly #config: WebtoolsConfig;
  readonly #events: ChannelEvents;
  readonly #sessionId: string;
  readonly #pinned: string | undefined;
  #metadata: WebtoolMetadata;
  #expected: string;
  #settings: JsonObject | undefined;
  /** Tools of the metadata fetched at connect, handed to the first `tools/list`. */
  #fresh = true;

  private constructor(
    config: WebtoolsConfig,
    events: ChannelEvents,
    pinned: string | undefined,
    metadata: WebtoolMetadata,
    expected: string,
  ) {
    this.#config = config;
    this.#events = events;
    this.#pinned = pinned;
    this.#sessionId = config.options.sessionId ?? randomUUID();
    this.#metadata = metadata;
    this.#expected = expected;
    this.#settings = configFor(metadata, config.options.config, { url: config.url });
    this.server = describe(metadata, expected);
  }

  /** Fetches the metadata (the pinned version's, or the latest) and checks it against the lock-in. */
  static async connect(
    config: WebtoolsConfig,
    events: ChannelEvents,
    deadline: Deadline,
  ): Promise<WebtoolsDialect> {
    const { options } = config;
    const pinned = options.version ?? options.metadata?.version;
    const metadata = await fetchMetadata(config, pinned, deadline);
    const actual = digestOf(metadata);
    const locked = options.digest ?? (options.metadata ? digestOf(options.metadata) : undefined);
    let expected = locked ?? actual;
    if (expected !== actual) {
      const change = new MetadataChangedError(expected, actual, metadata, {
        url: config.url,
        method: 'GET',
      });
      if (options.onChange !== 'report') throw change;
      events.warning(change);
      expected = actual;
    }
    return new WebtoolsDialect(config, events, pinned, metadata, expected);
  }

  send<T>(
    operation: Operation,
    context: SendContext,
    read: (outcome: Outcome) => T | Promise<T>,
  ): Promise<T> {
    return this.#send(operation, context).then(read);
  }

  async #send(operation: Operation, context: SendContext): Promise<Outcome> {
    const where = { url: this.#config.url, method: operation.method, tool: operation.tool };
    switch (operation.method) {
      case 'tools/list':
        return this.#list(context.deadline);
      case 'tools/call': {
        const params = operation.params ?? {};
        const action = String(params['name']);
        if (!this.#metadata.actions.some((candidate) => candidate.name === action)) {
          const available = this.#metadata.actions.map((candidate) => candidate.name);
          return { kind: 'failure', error: new ToolNotFoundError(available, where) };
        }
        return execute(
          this.#config,
          {
            sessionId: this.#sessionId,
            version: this.#pinned ?? this.#metadata.version,
            action,
            config: this.#settings,
            request: isObject(params['arguments']) ? params['arguments'] : {},
          },
          where,
          { idempotent: operation.idempotent, deadline: context.deadline },
        );
      }
    }
    const key = EMPTY_LISTS[operation.method];
    if (key) return { kind: 'complete', result: { [key]: [] } };
    return { kind: 'failure', error: new NotSupportedError(this.name, where) };
  }

  async adapt(operation: Operation): Promise<Operation | undefined> {
    switch (operation.method) {
      case 'ping':
        return { method: 'tools/list', idempotent: true };
      case 'logging/setLevel':
        return undefined;
      default:
        return operation;
    }
  }

  screenTools(tools: Tool[]): Tool[] {
    return tools;
  }

  /** The pinned metadata is the cache: the tool list is good until the caller asks again. */
  freshFor(_result: JsonObject, method: string): number {
    return method === 'tools/list' ? Number.POSITIVE_INFINITY : 0;
  }

  async close(): Promise<void> {}

  /** The tools; after the first listing, the metadata is fetched again and checked for changes. */
  async #list(deadline: Deadline): Promise<Outcome> {
    if (this.#fresh) {
      this.#fresh = false;
      return { kind: 'complete', result: { tools: toolsOf(this.#metadata) } };
    }
    const metadata = await fetchMetadata(this.#config, this.#pinned, deadline);
    const actual = digestOf(metadata);
    if (actual !== this.#expected) {
      const change = new MetadataChangedError(this.#expected, actual, metadata, {
        url: this.#config.url,
        method: 'tools/list',
      });
      if (this.#config.options.onChange !== 'report') return { kind: 'failure', error: change };
      this.#events.warning(change);
      this.#settings = configFor(metadata, this.#config.options.config, { url: this.#config.url });
      this.#metadata = metadata;
      this.#expected = actual;
      this.server = describe(metadata, actual);
    }
    return { kind: 'complete', result: { tools: toolsOf(this.#metadata) } };
  }
}

/** Who the webtool says it is; `digest` is what an application stores to lock it in. */
function describe(metadata: WebtoolMetadata, digest: string): ServerDescription {
  const info: ServerDescription['serverInfo'] = {
    name: String(metadata.name ?? ''),
    version: String(metadata.version ?? ''),
    digest,
  };
  return {
    protocolVersion: WEBTOOLS_VERSION,
    serverInfo: info,
    capabilities: { tools: {} },
    instructions: metadata.description,
  };
}
