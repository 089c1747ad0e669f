/**
 * Several servers as one: `createMcpClients({ github: url, files: { command: 'npx', ... } })`
 * gives one object whose tool list spans every server, with names kept apart (`github__search`),
 * and whose calls go to the right one. A server that is down or slow does not fail the others:
 * its tools are left out, a `warning` says why, and it alone is tried again in the background
 * until it answers. Closing closes them all.
 */
import {
  CALL_TOOL_KEYS,
  type CallToolOptions,
  createMcpClient,
  type ListOptions,
  type ListToolsOptions,
  type McpClient,
  type RequestOptions,
} from '../client/client.ts';
import type { ClientEvents } from '../client/events.ts';
import { CLIENT_OPTION_KEYS, type ClientOptions } from '../client/options.ts';
import type { ToolStreamEvent } from '../client/tool-stream.ts';
import { asError, typedError, usageError } from '../core/call-boundary.ts';
import { ClientClosedError, ToolNotFoundError, TransportError } from '../core/errors.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import { checkKeys, type OptionKeys } from '../core/option-keys.ts';
import type { CallToolResult, ReadResourceResult, Tool } from '../core/types.ts';
import type { Skill } from '../skills/entry.ts';
import type { LoadedSkill, LoadSkillOptions } from '../skills/skills.ts';
import { ServerToolNames, type ToolOriginName } from './names.ts';
import { ServerSkills } from './skills.ts';
import { isStdioTarget, readTargets, type ServerEntry, type ServerTargets } from './targets.ts';

export interface McpClientsOptions extends ClientOptions {
  /**
   * How long a listing (or `connect()`) waits for one server before leaving its tools out and
   * trying it again in the background.
   * @default 10_000
   */
  serverTimeoutMs?: number;
  /**
   * The pause before a failed server is tried again: `minDelayMs`, doubling (with jitter) up to
   * `maxDelayMs`, for as long as the servers are open.
   * @default { minDelayMs: 1_000, maxDelayMs: 30_000 }
   */
  reconnect?: { minDelayMs?: number; maxDelayMs?: number };
}

const CLIENTS_OPTION_KEYS = {
  ...CLIENT_OPTION_KEYS,
  serverTimeoutMs: true,
  reconnect: { minDelayMs: true, maxDelayMs: true },
} as const satisfies OptionKeys<McpClientsOptions>;

/** Where a server stands: not asked yet, answering, or failed and being tried again. */
export type ServerStatus = 'unknown' | 'up' | 'down';

/** The events of every server (with the server's name last), and the servers' own comings and goings. */
export type McpClientsEvents = {
  [E in keyof ClientEvents]: (...args: [...Parameters<ClientEvents[E]>, server: string]) => void;
} & {
  /** A server failed (a listing, a connect, or a call that could not reach it); its tools are left out. */
  serverDown: (server: string, error: Error) => void;
  /** A server that was down answers again; its tools are back (a `toolsChanged` follows). */
  serverUp: (server: string) => void;
};

/** Which server a qualified tool name belongs to. */
export interface ToolOrigin extends ToolOriginName {
  /** That server's client. */
  client: McpClient;
}

const FORWARDED: ReadonlyArray<keyof ClientEvents> = [
  'log',
  'toolsChanged',
  'resourcesChanged',
  'promptsChanged',
  'resourceUpdated',
  'elicitationComplete',
  'notification',
  'warning',
];

interface Member {
  readonly name: string;
  readonly client: McpClient;
  status: ServerStatus;
  failures: number;
  retry: ReturnType<typeof setTimeout> | undefined;
  probe: AbortController | undefined;
}

type Listener = (...args: never[]) => void;

export class McpClients implements AsyncDisposable {
  /** The servers' names, in the order given. */
  readonly servers: readonly string[];
  readonly #members: Member[];
  readonly #serverTimeoutMs: number;
  readonly #minDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #listeners = new Map<string, Set<Listener>>();
  /** The last combined listing, per `forModel`: the same parts give the same array. */
  readonly #combined = new Map<boolean, { parts: Array<Tool[] | undefined>; tools: Tool[] }>();
  #names = new ServerToolNames();
  readonly #skills = new ServerSkills();
  #closing: Promise<void> | undefined;

  constructor(targets: ServerTargets, options: McpClientsOptions = {}) {
    checkKeys(options, CLIENTS_OPTION_KEYS);
    const { serverTimeoutMs = 10_000, reconnect = {}, ...shared } = options;
    const { minDelayMs = 1_000, maxDelayMs = 30_000 } = reconnect;
    for (const [name, value] of [
      ['serverTimeoutMs', serverTimeoutMs],
      ['reconnect.minDelayMs', minDelayMs],
      ['reconnect.maxDelayMs', maxDelayMs],
    ] as const) {
      if (!(Number.isFinite(value) && value > 0)) {
        throw new TypeError(`expected \`${name}\` to be a positive number, got ${String(value)}`);
      }
    }
    this.#serverTimeoutMs = serverTimeoutMs;
    this.#minDelayMs = minDelayMs;
    this.#maxDelayMs = Math.max(minDelayMs, maxDelayMs);
    const entries = readTargets(targets, shared);
    const members: Member[] = [];
    try {
      for (const entry of entries) members.push(this.#member(entry));
    } catch (error) {
      for (const member of members) void member.client.close();
      throw error;
    }
    this.#members = members;
    this.servers = members.map((member) => member.name);
  }

  /** One server's own client, for what spans no servers (prompts, resources, completion). */
  client(server: string): McpClient {
    return this.#named(server).client;
  }

  /** Where each server stands. */
  status(): Record<string, ServerStatus> {
    return Object.fromEntries(this.#members.map((member) => [member.name, member.status]));
  }

  /**
   * Connects to every server at once. A server that fails is left out (a `warning` and a
   * `serverDown` event) and tried again in the background; only the caller's signal fails this.
   */
  async connect(options: RequestOptions = {}): Promise<void> {
    await Promise.all(
      this.#members.map((member) =>
        this.#tolerant(member, options, () =>
          member.client.connect({ ...options, timeoutMs: this.#timeout(options) }),
        ),
      ),
    );
  }

  /**
   * Every live server's tools, named `server__tool` (repaired where a provider would refuse the
   * name). A server that fails or takes longer than `serverTimeoutMs` is left out and retried in
   * the background; a server already down is not waited for. The same listings give the same
   * array.
   */
  async listTools(options: ListToolsOptions = {}): Promise<Tool[]> {
    try {
      return await this.#listTools(options);
    } catch (error) {
      throw typedError(error, { method: 'tools/list' });
    }
  }

  async #listTools(options: ListToolsOptions): Promise<Tool[]> {
    this.#open();
    const parts = await Promise.all(
      this.#members.map((member) =>
        member.status === 'down'
          ? undefined
          : this.#tolerant(member, options, () =>
              member.client.listTools({ ...options, timeoutMs: this.#timeout(options) }),
            ),
      ),
    );
    const forModel = options.forModel === true;
    const last = this.#combined.get(forModel);
    if (last?.parts.every((part, index) => part === parts[index])) return last.tools;
    const names = ServerToolNames.of(
      this.#members.map((member, index) => ({
        server: member.name,
        tools: parts[index]?.map((tool) => tool.name) ?? [],
      })),
    );
    const tools = this.#members.flatMap((member, index) =>
      (parts[index] ?? []).map((tool) => ({ ...tool, name: names.name(member.name, tool.name)! })),
    );
    this.#names = names;
    this.#combined.set(forModel, { parts, tools });
    return tools;
  }

  /** Calls a tool by its qualified name on the server it belongs to. */
  async callTool(
    name: string,
    args: JsonObject = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    try {
      checkKeys(options, CALL_TOOL_KEYS);
      this.#open();
      const origin = await this.#route(name, options);
      try {
        return await origin.client.callTool(origin.tool, args, options);
      } catch (error) {
        this.#unreachable(origin.server, error);
        throw error;
      }
    } catch (error) {
      throw typedError(error, { method: 'tools/call', tool: name });
    }
  }

  /** `streamTool` on the server the tool belongs to. */
  async *streamTool(
    name: string,
    args: JsonObject = {},
    options: CallToolOptions = {},
  ): AsyncIterable<ToolStreamEvent> {
    let origin: ToolOrigin;
    try {
      checkKeys(options, CALL_TOOL_KEYS);
      this.#open();
      origin = await this.#route(name, options);
    } catch (error) {
      throw typedError(error, { method: 'tools/call', tool: name });
    }
    try {
      yield* origin.client.streamTool(origin.tool, args, options);
    } catch (error) {
      this.#unreachable(origin.server, error);
      throw typedError(error, { method: 'tools/call', tool: name });
    }
  }

  /**
   * Reads a resource. `tool` (a qualified name) says whose: the server of the tool whose result
   * or view names it. Without it, the servers are asked in order and the first that has it
   * answers (a `ui://` URI can mean different views on two servers: name the tool).
   */
  async readResource(
    uri: string,
    options: ListOptions & { tool?: string } = {},
  ): Promise<ReadResourceResult> {
    this.#open();
    const { tool, ...rest } = options;
    if (tool !== undefined) return (await this.#route(tool, rest)).client.readResource(uri, rest);
    let failure: unknown;
    for (const member of this.#members) {
      try {
        return await member.client.readResource(uri, rest);
      } catch (error) {
        if (rest.signal?.aborted) throw error;
        failure ??= error;
      }
    }
    throw failure;
  }

  /**
   * Every live server's skills, each entry's `server` the name the application gave that server
   * (not its `serverInfo.name`): a skill is (server, uri), and two servers' skills of one name
   * are both listed. Servers whose client has no `skills: true` are left out (a TypeError when
   * none has); a server that fails is left out and retried, as for tools.
   */
  async listSkills(options: ListOptions = {}): Promise<Skill[]> {
    this.#open();
    const refused: TypeError[] = [];
    const parts = await Promise.all(
      this.#members.map((member) =>
        member.status === 'down'
          ? undefined
          : this.#tolerant(member, options, () =>
              member.client
                .listSkills({ ...options, timeoutMs: this.#timeout(options) })
                .catch((error: unknown) => {
                  // Skills off for this server is the application's choice, not the server down.
                  if (!(error instanceof TypeError)) throw error;
                  refused.push(error);
                  return undefined;
                }),
            ),
      ),
    );
    if (refused.length === this.#members.length) throw refused[0];
    return this.#skills.listed(
      this.#members.map((member, index) => ({
        server: member.name,
        client: member.client,
        skills: parts[index] ?? [],
      })),
    );
  }

  /**
   * Loads a skill on the server that listed it (see `McpClient.loadSkill`): an entry
   * `listSkills()` gave, or a uri with `{ server }` (without it, the one server whose last
   * listing has that uri). Its reads go to that server alone.
   */
  async loadSkill(
    skill: Skill | string,
    options: LoadSkillOptions & { server?: string } = {},
  ): Promise<LoadedSkill> {
    this.#open();
    return this.#skills.load(skill, options, (server) => this.#named(server).client);
  }

  /** The server and its own name for a qualified tool name (from the last listing). */
  originOf(name: string): ToolOrigin | undefined {
    const origin = this.#names.origin(name);
    const member = origin && this.#members.find((candidate) => candidate.name === origin.server);
    return origin && member ? { ...origin, client: member.client } : undefined;
  }

  /**
   * Every connected server's `instructions`, each headed by the server's name, for a system
   * prompt. Undefined when none gave any. Read after `connect()` or a listing.
   */
  get instructions(): string | undefined {
    const parts = this.#members.flatMap(({ name, client }) =>
      client.instructions ? [`## ${name}\n\n${client.instructions.trim()}`] : [],
    );
    return parts.length > 0 ? parts.join('\n\n') : undefined;
  }

  /** Subscribes to every server's events (the server's name comes last) and to `serverDown` / `serverUp`. */
  on<E extends keyof McpClientsEvents>(event: E, listener: McpClientsEvents[E]): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  /** Stops every retry and closes every server's client. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const member of this.#members) {
        clearTimeout(member.retry);
        member.retry = undefined;
        member.probe?.abort();
      }
      await Promise.allSettled(this.#members.map((member) => member.client.close()));
    })();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #member({ name, target, options }: ServerEntry): Member {
    let client: McpClient;
    try {
      client = isStdioTarget(target)
        ? createMcpClient(target, withoutHttpOptions(options))
        : createMcpClient(target, options);
    } catch (error) {
      throw error instanceof TypeError
        ? new TypeError(`server "${name}": ${error.message}`)
        : error;
    }
    const member: Member = {
      name,
      client,
      status: 'unknown',
      failures: 0,
      retry: undefined,
      probe: undefined,
    };
    for (const event of FORWARDED) {
      client.on(event, ((...args: unknown[]) => this.#emit(event, ...args, name)) as never);
    }
    return member;
  }

  #named(server: string): Member {
    const member = this.#members.find((candidate) => candidate.name === server);
    if (!member) {
      throw usageError(`no server named "${server}" (there are ${this.servers.join(', ')})`);
    }
    return member;
  }

  /** The server and tool a qualified name leads to; lists first when the name is new. */
  async #route(name: string, options: RequestOptions): Promise<ToolOrigin> {
    let origin = this.originOf(name);
    if (!origin) {
      await this.listTools(limitsOf(options));
      origin = this.originOf(name);
    }
    if (!origin) {
      const available = (this.#combined.get(false) ?? this.#combined.get(true))?.tools ?? [];
      throw new ToolNotFoundError(
        available.map((tool) => tool.name),
        { tool: name },
      );
    }
    return origin;
  }

  /** Runs one server's part; a failure (not the caller's abort) marks the server down. */
  async #tolerant<T>(
    member: Member,
    options: RequestOptions,
    work: () => Promise<T>,
  ): Promise<T | undefined> {
    try {
      const value = await work();
      this.#up(member);
      return value;
    } catch (error) {
      if (options.signal?.aborted || this.#closing) throw error;
      this.#down(member, asError(error));
      return undefined;
    }
  }

  /** A call that could not reach its server marks it down; a tool's or a deadline's failure does not. */
  #unreachable(server: string, error: unknown): void {
    if (error instanceof TransportError && !this.#closing) this.#down(this.#named(server), error);
  }

  #up(member: Member): void {
    const was = member.status;
    member.status = 'up';
    member.failures = 0;
    if (was !== 'down') return;
    this.#emit('serverUp', member.name);
    this.#emit('toolsChanged', member.name);
  }

  #down(member: Member, error: Error): void {
    const was = member.status;
    member.status = 'down';
    if (was !== 'down') {
      this.#emit('warning', error, member.name);
      this.#emit('serverDown', member.name, error);
      if (was === 'up') this.#emit('toolsChanged', member.name);
    }
    this.#retryLater(member);
  }

  /** Tries a down server again after a backoff, until it answers or the servers are closed. */
  #retryLater(member: Member): void {
    if (member.retry || member.probe || this.#closing) return;
    const ceiling = Math.min(this.#maxDelayMs, this.#minDelayMs * 2 ** member.failures);
    const delay = ceiling / 2 + (Math.random() * ceiling) / 2;
    member.failures++;
    member.retry = setTimeout(() => {
      member.retry = undefined;
      const probe = new AbortController();
      member.probe = probe;
      member.client.listTools({ refresh: true, signal: probe.signal }).then(
        () => {
          member.probe = undefined;
          if (!this.#closing) this.#up(member);
        },
        () => {
          member.probe = undefined;
          if (!this.#closing) this.#retryLater(member);
        },
      );
    }, delay);
  }

  #timeout(options: RequestOptions): number {
    return Math.min(options.timeoutMs ?? Number.POSITIVE_INFINITY, this.#serverTimeoutMs);
  }

  #open(): void {
    if (this.#closing) throw new ClientClosedError({ method: 'tools/list' });
  }

  #emit(event: string, ...args: unknown[]): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        (listener as (...values: unknown[]) => void)(...args);
      } catch (error) {
        if (event !== 'warning') this.#emit('warning', asError(error), args.at(-1));
      }
    }
  }
}

/**
 * Clients for several servers, as one: `listTools` and `callTool` span them all, tool names
 * prefixed by the server's (`github__search_issues`). Takes servers by name (a URL,
 * `{ url, ...options }`, or `{ command, args?, env? }` for a local server) or an editor's
 * `{ mcpServers: { ... } }` configuration; `options` apply to every server. Nothing is sent until
 * the first call.
 */
export function createMcpClients(targets: ServerTargets, options?: McpClientsOptions): McpClients {
  return new McpClients(targets, options);
}

/** A call's limits alone: its own options (onProgress, meta...) are not a listing's. */
function limitsOf(options: RequestOptions): RequestOptions {
  const limits: RequestOptions = {};
  if (options.signal !== undefined) limits.signal = options.signal;
  if (options.timeoutMs !== undefined) limits.timeoutMs = options.timeoutMs;
  if (options.maxTimeoutMs !== undefined) limits.maxTimeoutMs = options.maxTimeoutMs;
  return limits;
}

/**
 * The options shared by every server, for a local one: what only HTTP takes (headers,
 * credentials, the dispatcher) is left out rather than refused.
 */
function withoutHttpOptions(options: ClientOptions): ClientOptions {
  const { headers: _headers, auth: _auth, dispatcher: _dispatcher, ...rest } = options;
  return rest;
}
