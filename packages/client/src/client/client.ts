/**
 * McpClient: the public methods, the caches, and the lifecycle. It owns the undici dispatcher
 * (unless one was injected) and the dialect it connected with; every call gets a deadline and
 * goes through the one call loop.
 */
import type { Dispatcher } from 'undici';
import { visibleToModel, withUi } from '../apps/apps.ts';
import { gateFor } from '../auth/gate.ts';
import { type Loaded, ResultCache } from '../call/cache.ts';
import {
  type CallContext,
  type CallResult,
  type CallStart,
  type CallSupport,
  runCall,
} from '../call/call.ts';
import { type CallHandle, checkHandle } from '../call/handles.ts';
import type { CallStatus } from '../call/redeem.ts';
import { checkStructuredContent, toCallToolResult } from '../call/results.ts';
import { undeclared } from '../call/server-capabilities.ts';
import { asError, settle, typedError, usageError } from '../core/call-boundary.ts';
import { type Deadline, raceAbort } from '../core/deadline.ts';
import {
  ClientClosedError,
  type ErrorContext,
  isMcpError,
  MalformedMessageError,
  ResponseTooLargeError,
  TooManyPagesError,
} from '../core/errors.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import { checkKeys, type OptionKeys } from '../core/option-keys.ts';
import { onPushback } from '../core/pushback.ts';
import type { Revalidation } from '../core/revalidation.ts';
import { Roster } from '../core/roster.ts';
import type {
  CallToolResult,
  CompleteResult,
  CompletionReference,
  ContentBlock,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '../core/types.ts';
import { pageSize } from '../core/wire-size.ts';
import type { Dialect, Operation, Progress } from '../dialects/dialect.ts';
import { Responder } from '../handlers/responder.ts';
import { UrlCompletions } from '../handlers/url-completions.ts';
import type { Admission } from '../policy/admission.ts';
import { type PolicyParts, policyParts } from '../policy/check.ts';
import type { Skill } from '../skills/entry.ts';
import type { LoadedSkill, LoadSkillOptions, SkillCatalog } from '../skills/skills.ts';
import { loadObserver } from '../telemetry/load.ts';
import {
  type Attributes,
  bindSpan,
  NO_SPAN,
  type Observer,
  type Span,
  spanOf,
} from '../telemetry/span.ts';
import { withGate } from '../wire/transport/gate-interceptor.ts';
import { callHeaders, createAgent } from '../wire/transport/http.ts';
import { callDeadline, checkLimits } from './call-deadline.ts';
import { type ClientEvent, type ClientEvents, EventHub, eventOf } from './events.ts';
import {
  connectedAttributes,
  describeOperation,
  peerAttributes,
  withTraceContext,
} from './operation.ts';
import {
  type ClientOptions,
  type ClientTarget,
  type ResolvedOptions,
  resolveOptions,
} from './options.ts';
import { dropStale, readKey } from './stale-results.ts';
import { recoverCall } from './tool-recovery.ts';
import { streamOf, type ToolStreamEvent } from './tool-stream.ts';

/** Options every method takes. */
export interface RequestOptions {
  /** Aborting it rejects the call with AbortedError and tells the server to stop. */
  signal?: AbortSignal;
  /** This call's timeout, instead of the client's `timeoutMs`. */
  timeoutMs?: number;
  /** This call's hard cap, instead of the client's `maxTimeoutMs`. */
  maxTimeoutMs?: number;
}

export interface CallToolOptions extends RequestOptions {
  /** Receives the server's progress reports; giving it asks the server for them. */
  onProgress?: (progress: Progress) => void;
  /**
   * Sent as the request's `_meta`, beside what the protocol puts there itself (an adapter puts
   * the model's tool call id here). Keys follow the spec's `_meta` naming rules.
   */
  meta?: JsonObject;
  /**
   * Receives the result in parts as the server streams it (MCP-lite's `message` events); giving
   * it asks the server for a stream. The final result still holds the whole.
   */
  onPartial?: (content: ContentBlock[]) => void;
  /** Receives where a deferred call stands: pending, working, input_required, done. */
  onStatus?: (status: CallStatus) => void;
  /** Headers on every request this call makes, over the client's own. */
  headers?: Record<string, string>;
  /**
   * Run the call as a task where the tool allows one but does not require it (2025-11-25
   * `execution.taskSupport: "optional"`). A tool that requires one always gets one; a
   * 2026-07-28 server decides by itself.
   * @default false
   */
  task?: boolean;
}

export interface ListOptions extends RequestOptions {
  /** Ignore the cache and ask the server again. */
  refresh?: boolean;
}

export interface ListToolsOptions extends ListOptions {
  /**
   * Leave out what a model must not be given: the tools the client works by itself (MCP-lite's
   * `redeem` while `autoRedeem` is on) and MCP Apps tools whose visibility lacks `"model"`.
   * What adapters hand to models.
   */
  forModel?: boolean;
}

/** The keys each method's options take: a key of the interface left out here does not compile. */
const REQUEST_KEYS = {
  signal: true,
  timeoutMs: true,
  maxTimeoutMs: true,
} as const satisfies OptionKeys<RequestOptions>;

export const CALL_TOOL_KEYS = {
  ...REQUEST_KEYS,
  onProgress: true,
  // `meta` and `headers` hold the caller's own keys.
  meta: true,
  onPartial: true,
  onStatus: true,
  headers: true,
  task: true,
} as const satisfies OptionKeys<CallToolOptions>;

const LIST_KEYS = { ...REQUEST_KEYS, refresh: true } as const satisfies OptionKeys<ListOptions>;

const LIST_TOOLS_KEYS = {
  ...LIST_KEYS,
  forModel: true,
} as const satisfies OptionKeys<ListToolsOptions>;

/** `readAppResource` passes the tool a view belongs to, as it does to `McpClients`. */
const READ_KEYS = { ...LIST_KEYS, tool: true } as const;

const COMPLETE_KEYS = { ...REQUEST_KEYS, context: { arguments: true } } as const;

const LOAD_SKILL_KEYS = {
  ...LIST_KEYS,
  dynamic: true,
} as const satisfies OptionKeys<LoadSkillOptions>;

export class McpClient implements AsyncDisposable {
  readonly url: string;
  readonly #options: ResolvedOptions;
  /** Undefined for a local (stdio) server, which needs none. */
  readonly #dispatcher: Dispatcher | undefined;
  /** What requests go through: the dispatcher, behind the gate of `headers` and `auth` if any. */
  readonly #gatedDispatcher: Dispatcher | undefined;
  readonly #ownsDispatcher: boolean;
  readonly #events = new EventHub();
  readonly #calls = new Roster<'callSlot', Deadline>('callSlot');
  #dialect: Dialect | undefined;
  #connecting: Promise<Dialect> | undefined;
  readonly #cache = new ResultCache();
  /** Each tool listing as models see it (`listTools({ forModel: true })`). */
  readonly #forModel = new WeakMap<Tool[], Tool[]>();
  /** What every call needs; its `ask` is where every question goes, from a dialect or a call. */
  readonly #callSupport: CallSupport;
  #closing: Promise<void> | undefined;
  /** Where spans go: `undefined` until the first operation asks, `null` when nowhere. */
  #observer: Observer | null | undefined;
  #observing: Promise<Observer | null> | undefined;
  readonly #peer: Attributes;
  /** Skills (SEP-2640): loaded with the first skill method, as only some applications use them. */
  #skills: Promise<SkillCatalog> | undefined;
  /** The `policy` option's slots, pace and reuse; undefined, and free, when it asks for none. */
  readonly #policy: PolicyParts | undefined;

  constructor(server: ClientTarget, options: ClientOptions = {}) {
    this.#options = resolveOptions(server, options);
    this.url = this.#options.url;
    const responder = new Responder(this.#options.handlers, () => ({
      name: this.#dialect?.server.serverInfo.name ?? '',
      version: this.#dialect?.server.serverInfo.version ?? '',
      protocolVersion: this.#dialect?.server.protocolVersion ?? '',
      url: this.url,
    }));
    this.#callSupport = {
      ask: responder.answer,
      maxInputRounds: this.#options.maxInputRounds,
      urlCompletions: new UrlCompletions(),
      autoRedeem: this.#options.autoRedeem,
      handles: this.#options.handles,
      extendOnLife: this.#options.resetTimeoutOnProgress,
      warn: (error) => this.#events.emit('warning', error),
      url: this.url,
    };
    // A local server has no address: it is a process, spoken to over pipes.
    this.#peer = this.#options.stdio ? { 'network.transport': 'pipe' } : peerAttributes(this.url);
    this.#ownsDispatcher = options.dispatcher === undefined && !this.#options.stdio;
    this.#dispatcher = this.#options.stdio
      ? undefined
      : (options.dispatcher ?? createAgent(this.#options.connectTimeoutMs));
    const gate =
      this.#dispatcher &&
      gateFor({
        url: this.url,
        headers: this.#options.headersSource,
        auth: this.#options.auth,
        dispatcher: this.#dispatcher,
        maxResponseBytes: this.#options.maxResponseBytes,
      });
    this.#gatedDispatcher =
      gate && this.#dispatcher
        ? withGate(this.#dispatcher, gate, this.#options.maxResponseBytes)
        : this.#dispatcher;
    this.#policy = policyParts(
      this.#options.policy,
      this.url,
      (note) => {
        if (note.kind === 'reused') this.#reusedSpan(note.tool, note.shared);
        this.#events.emit('policy', note);
      },
      (error) => this.#events.emit('warning', error),
    );
  }

  /**
   * A call answered from the policy's reuse makes no request, and so no span of its own: it gets
   * one here, ended at once, saying where its answer came from.
   */
  #reusedSpan(tool: string, shared: boolean): void {
    const observer = this.#observer;
    if (!observer || observer.quiet?.()) return;
    const operation = { method: 'tools/call', params: { name: tool }, idempotent: true, tool };
    const span = this.#operationSpan(observer, { operation });
    span.set({ 'toolwire.policy.reused': true, 'toolwire.policy.shared': shared });
    span.end();
  }

  /** The negotiated protocol revision, once connected. */
  get protocolVersion(): string | undefined {
    return this.#dialect?.server.protocolVersion;
  }

  get serverInfo(): Dialect['server']['serverInfo'] | undefined {
    return this.#dialect?.server.serverInfo;
  }

  get serverCapabilities(): JsonObject | undefined {
    return this.#dialect?.server.capabilities;
  }

  get instructions(): string | undefined {
    return this.#dialect?.server.instructions;
  }

  /** Which dialect the client speaks with this server, once connected. */
  get dialect(): string | undefined {
    return this.#dialect?.name;
  }

  /** Connects now rather than on first use. Safe to call more than once. */
  async connect(options: RequestOptions = {}): Promise<void> {
    try {
      checkKeys(options, REQUEST_KEYS);
      await this.#connected(options);
    } catch (error) {
      throw typedError(error, { url: this.url, method: 'initialize' });
    }
  }

  /** Subscribes to server notifications; returns the function that unsubscribes. */
  on<E extends keyof ClientEvents>(event: E, listener: ClientEvents[E]): () => void {
    return this.#events.on(event, listener);
  }

  /**
   * Every tool the server offers, all pages followed. Kept while fresh: until the server says the
   * list changed, or for the time a modern server allows.
   */
  async listTools(options: ListToolsOptions = {}): Promise<Tool[]> {
    checkKeys(options, LIST_TOOLS_KEYS);
    return this.#listTools(options);
  }

  /** `listTools` for the client's own lookups, which pass a call's options along. */
  async #listTools(options: ListToolsOptions): Promise<Tool[]> {
    checkLimits(options);
    const tools = await this.#cache.get<Tool[]>(
      'tools/list',
      async (kept) => {
        const listing = await this.#listAll<unknown>('tools/list', 'tools', options, kept);
        // A 304: the kept listing stands as it was screened, the same array for every caller.
        if (listing === kept) return kept;
        try {
          const tools = this.#wellFormed<Tool>(listing.value, 'tools/list', isTool);
          const screened = this.#dialect!.screenTools(tools);
          return { value: withUi(screened), freshForMs: listing.freshForMs, etag: listing.etag };
        } catch (error) {
          throw typedError(error, { url: this.url, method: 'tools/list' });
        }
      },
      options.refresh,
    );
    if (!options.forModel) return tools;
    // The same listing gives the same array, as listTools itself does: callers compare them.
    let shown = this.#forModel.get(tools);
    if (!shown) {
      const callsItself = this.#options.autoRedeem
        ? this.#dialect?.callsItself?.bind(this.#dialect)
        : undefined;
      // A tool the client works itself, or one the server keeps for its MCP Apps views.
      const hidden = (tool: Tool) => callsItself?.(tool) === true || !visibleToModel(tool);
      shown = tools.some(hidden) ? tools.filter((tool) => !hidden(tool)) : tools;
      this.#forModel.set(tools, shown);
    }
    return shown;
  }

  callTool(
    name: string,
    args: JsonObject = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    try {
      checkKeys(options, CALL_TOOL_KEYS);
      if (typeof name !== 'string' || name === '') {
        throw usageError(
          `expected a tool name, got ${name === '' ? 'an empty string' : typeof name}`,
        );
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        throw usageError(
          `expected the arguments of "${name}" as an object, got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}`,
        );
      }
      // The listing already in hand, nearly always: the call starts without a turn of the loop.
      const known = toolIn(this.#cache.peekLoaded<Tool[]>('tools/list'), name);
      if (known) return this.#callTool(name, args, options, known);
      return this.#toolNamed(name, options).then((tool) =>
        this.#callTool(name, args, options, tool),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A call of a tool looked up (or not found) in the listing: reused if the policy says so. */
  #callTool(
    name: string,
    args: JsonObject,
    options: CallToolOptions,
    known: Tool | undefined,
  ): Promise<CallToolResult> {
    const reuse = this.#policy?.reuse;
    // A call with headers of its own may act for someone else: its result is its own. A closed
    // client answers nothing, not even from what it kept.
    if (reuse?.covers(name, known) && !options.headers && !this.#closing) {
      const limits = {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? this.#options.timeoutMs,
        tool: name,
      };
      return reuse.run(name, args, limits, () => this.#callOnce(name, args, options, known));
    }
    return this.#callOnce(name, args, options, known);
  }

  /** One call of a tool; on callbacks, not an async frame. */
  #callOnce(
    name: string,
    args: JsonObject,
    options: CallToolOptions,
    known: Tool | undefined,
  ): Promise<CallToolResult> {
    const params = options.meta
      ? { name, arguments: args, _meta: { ...options.meta } }
      : { name, arguments: args };
    // The answer is read in the request's own last step: no promise of its own.
    return this.#request(
      toolCall(name, params, known, options),
      options,
      undefined,
      (answer, where) => finished(answer.result, known, where),
      (error, where) => this.#recover(error, name, params, known, options, where),
    );
  }

  /** What a cached listing got wrong (a changed or dropped tool) is looked up again. */
  #recover(
    error: Error,
    name: string,
    params: JsonObject,
    known: Tool | undefined,
    options: CallToolOptions,
    where: ErrorContext,
  ): Promise<CallToolResult> {
    const call = (definition: Tool | undefined) =>
      this.#request(toolCall(name, params, definition, options), options);
    const list = (refresh: boolean) => this.#listTools({ ...options, refresh });
    return recoverCall(error, name, known, { call, list }, where).then(({ answer, tool }) =>
      finished(answer.result, tool, where),
    );
  }

  /**
   * Goes on waiting for a deferred call: from a handle a call's `pending` result or a store gave,
   * or that an error carries (a deadline or a closed client interrupted the wait). Works from
   * another client, in another process, as long as it speaks to the same URL.
   */
  async redeem(handle: CallHandle, options: CallToolOptions = {}): Promise<CallToolResult> {
    checkKeys(options, CALL_TOOL_KEYS);
    const checked = checkHandle(handle);
    if (checked.url !== this.url) {
      throw usageError(`the handle belongs to ${checked.url}, this client to ${this.url}`);
    }
    const { result } = await this.#request({ handle: checked }, options);
    const context = { url: this.url, method: 'tools/call', tool: checked.tool };
    const tool = await this.#toolNamed(checked.tool, options);
    return finished(result, tool, context);
  }

  /**
   * Calls a tool and yields what happens as it happens: the result's parts as the server streams
   * them, progress, where a deferred call stands, and last the final result. Stopping the
   * iteration early aborts the call.
   */
  streamTool(
    name: string,
    args: JsonObject = {},
    options: CallToolOptions = {},
  ): AsyncIterable<ToolStreamEvent> {
    return streamOf((hooks) => this.callTool(name, args, { ...options, ...hooks }), options);
  }

  listResources(options: ListOptions = {}): Promise<Resource[]> {
    return this.#cachedList<Resource>('resources/list', 'resources', options);
  }

  listResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    return this.#cachedList<ResourceTemplate>(
      'resources/templates/list',
      'resourceTemplates',
      options,
    );
  }

  async readResource(uri: string, options: ListOptions = {}): Promise<ReadResourceResult> {
    checkKeys(options, READ_KEYS);
    checkLimits(options);
    return this.#cache.get(
      readKey(uri),
      async () => {
        const { result, afterInput } = await this.#request(
          { method: 'resources/read', params: { uri }, idempotent: true },
          options,
        );
        expectArray(result, 'contents', 'resources/read', this.url);
        return {
          value: result as unknown as ReadResourceResult,
          // What the user or the model answered for is never cached: the next read asks again.
          freshForMs: afterInput ? 0 : this.#dialect!.freshFor(result, 'resources/read'),
        };
      },
      options.refresh,
    );
  }

  /**
   * Every skill the server lists (`io.modelcontextprotocol/skills`), all pages followed, each
   * entry checked (one that fails is left out with a `warning`); no file is read. Kept for the
   * `ttlMs` the server gives. Needs `skills: true`; a server that does not declare the extension
   * lists none.
   */
  async listSkills(options: ListOptions = {}): Promise<Skill[]> {
    checkKeys(options, LIST_KEYS);
    checkLimits(options);
    return (await this.#skillCatalog()).list(options);
  }

  /**
   * The skill whose SKILL.md is `uri`, from `skills/get`, checked; kept for the server's `ttlMs`.
   * A listing that leaves a skill out is no proof it does not exist.
   */
  async getSkill(uri: string, options: ListOptions = {}): Promise<Skill> {
    checkKeys(options, LIST_KEYS);
    checkLimits(options);
    return (await this.#skillCatalog()).get(uri, options);
  }

  /**
   * Loads a skill, by its SKILL.md uri or an entry this client listed: SKILL.md is read and
   * verified (size, digest, frontmatter); its other files are read only through the result's
   * `readFile`, each verified, and only if the entry lists it. See docs/skills.md.
   */
  async loadSkill(skill: string | Skill, options: LoadSkillOptions = {}): Promise<LoadedSkill> {
    checkKeys(options, LOAD_SKILL_KEYS);
    checkLimits(options);
    return (await this.#skillCatalog()).load(skill, options);
  }

  #skillCatalog(): Promise<SkillCatalog> {
    this.#skills ??= import('../skills/skills.ts').then(
      ({ SkillCatalog, ttlOf }) =>
        new SkillCatalog({
          server: this.url,
          enabled: this.#options.skills,
          list: (options) => this.#listAll('skills/list', 'skills', options, undefined, ttlOf),
          request: async (method, params, options) =>
            (await this.#request({ method, params, idempotent: true }, options)).result,
          capabilities: async (options) => (await this.#connected(options)).server.capabilities,
          cache: this.#cache,
          warn: (error) => this.#events.emit('warning', error),
          maxPages: this.#options.maxPages,
        }),
    );
    return this.#skills;
  }

  /** Asks the server to send `resourceUpdated` events for `uri`. */
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    checkKeys(options, REQUEST_KEYS);
    await this.#request(
      { method: 'resources/subscribe', params: { uri }, idempotent: true },
      options,
    );
  }

  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    checkKeys(options, REQUEST_KEYS);
    await this.#request(
      { method: 'resources/unsubscribe', params: { uri }, idempotent: true },
      options,
    );
  }

  listPrompts(options: ListOptions = {}): Promise<Prompt[]> {
    return this.#cachedList<Prompt>('prompts/list', 'prompts', options);
  }

  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<GetPromptResult> {
    checkKeys(options, REQUEST_KEYS);
    const { result } = await this.#request(
      { method: 'prompts/get', params: { name, arguments: args }, idempotent: true },
      options,
    );
    return expectArray(result, 'messages', 'prompts/get', this.url) as unknown as GetPromptResult;
  }

  /** Argument completion for a prompt or a resource template. */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: RequestOptions & { context?: { arguments?: Record<string, string> } } = {},
  ): Promise<CompleteResult> {
    checkKeys(options, COMPLETE_KEYS);
    const params: JsonObject = { ref, argument };
    if (options.context) params['context'] = options.context;
    const { result } = await this.#request(
      { method: 'completion/complete', params, idempotent: true },
      options,
    );
    if (!isObject(result['completion']) || !Array.isArray(result['completion']['values'])) {
      throw new MalformedMessageError('completion result without completion.values', {
        url: this.url,
        method: 'completion/complete',
      });
    }
    return result as unknown as CompleteResult;
  }

  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    checkKeys(options, REQUEST_KEYS);
    await this.#request(
      { method: 'logging/setLevel', params: { level }, idempotent: true },
      options,
    );
  }

  /**
   * Tells the server the roots changed (the `roots` function now answers differently), so it asks
   * again. Does nothing before the client connects, or for a 2026-07-28 server, which asks for
   * roots afresh with each call that needs them.
   */
  async rootsChanged(options: RequestOptions = {}): Promise<void> {
    checkKeys(options, REQUEST_KEYS);
    if (!this.#options.handlers.roots || !this.#dialect?.notify) return;
    using deadline = callDeadline(options, this.#options, {
      url: this.url,
      method: 'notifications/roots/list_changed',
    });
    await this.#dialect.notify('notifications/roots/list_changed', deadline.signal);
  }

  /** Checks that the server answers. */
  async ping(options: RequestOptions = {}): Promise<void> {
    checkKeys(options, REQUEST_KEYS);
    await this.#request({ method: 'ping', idempotent: true }, options);
  }

  /**
   * Ends the session (DELETE), stops the streams, rejects calls still running with
   * ClientClosedError, and closes the dispatcher the client owns. Leaves no socket or timer.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutdown(): Promise<void> {
    for (const deadline of this.#calls.snapshot())
      deadline.abort(new ClientClosedError({ url: this.url }));
    await this.#policy?.admission?.close();
    const dialect = this.#dialect ?? (await this.#connecting?.catch(() => undefined));
    await dialect?.close();
    if (this.#ownsDispatcher) await this.#dispatcher?.destroy();
  }

  async #toolNamed(name: string, options: RequestOptions): Promise<Tool | undefined> {
    // Any listing will do to look a tool up, fresh or not: a call should not wait for a relisting.
    const known = this.#cache.peek<Tool[]>('tools/list') ?? this.#listTools(options);
    const cached = (await known).find((tool) => tool.name === name);
    if (cached) return cached;
    // The listing may predate the tool: look once more before calling it unknown.
    return (await this.#listTools({ ...options, refresh: true })).find(
      (tool) => tool.name === name,
    );
  }

  async #cachedList<T>(method: string, key: string, options: ListOptions): Promise<T[]> {
    checkKeys(options, LIST_KEYS);
    checkLimits(options);
    return this.#cache.get(
      method,
      (kept) => this.#listAll<T>(method, key, options, kept),
      options.refresh,
    );
  }

  /**
   * Every page of a list, under one deadline; fresh for as long as its least fresh page. A
   * cursor seen before ends the list (a server that loops would hang us); more than `maxPages`
   * pages, or more than `maxListBytes` of them, is an error: a server must not fill our memory.
   * Given a `kept` listing with an ETag, the first page revalidates it: a 304 hands `kept` back
   * (its later pages are not read again); any other answer is read, page by page, anew.
   */
  async #listAll<T>(
    method: string,
    key: string,
    options: RequestOptions,
    kept?: Loaded<T[]>,
    // An extension's list carries its own caching hint, in either era (skills/list's ttlMs).
    freshFor: (result: JsonObject) => number = (result) => this.#dialect!.freshFor(result, method),
  ): Promise<Loaded<T[]>> {
    const items: T[] = [];
    const seen = new Set<string>();
    let freshForMs = Number.POSITIVE_INFINITY;
    let cursor: string | undefined;
    let bytes = 0;
    using deadline = callDeadline(options, this.#options, { url: this.url, method });
    // Only the first page: its ETag stands for the whole listing.
    const revalidation: Revalidation = { ifNoneMatch: kept?.etag };
    for (let page = 1; ; page++) {
      const params = cursor === undefined ? undefined : { cursor };
      const { result } = await this.#request(
        { method, params, idempotent: true, revalidation: page === 1 ? revalidation : undefined },
        options,
        deadline,
      );
      if (revalidation.notModified && kept) return kept;
      const entries = expectArray(result, key, method, this.url)[key] as T[];
      bytes += pageSize(result, entries);
      if (bytes > this.#options.maxListBytes) {
        throw new ResponseTooLargeError('list', this.#options.maxListBytes, {
          url: this.url,
          method,
          retryable: false,
        });
      }
      // One at a time: spreading a page of a few hundred thousand items overflows the stack.
      for (const entry of entries) items.push(entry);
      freshForMs = Math.min(freshForMs, freshFor(result));
      const next = result['nextCursor'];
      if (typeof next !== 'string' || next === '' || seen.has(next)) break;
      if (page >= this.#options.maxPages) {
        throw new TooManyPagesError(this.#options.maxPages, {
          url: this.url,
          method,
          mayHaveRun: true,
          retryable: false,
        });
      }
      seen.add(next);
      cursor = next;
    }
    return { value: items, freshForMs, etag: revalidation.etag };
  }

  /** Drops the entries of a listing the client cannot use, each with a `warning`. */
  #wellFormed<T>(
    entries: unknown[],
    method: string,
    check: (entry: unknown) => string | undefined,
  ): T[] {
    const kept: T[] = [];
    for (const entry of entries) {
      const problem = check(entry);
      if (problem === undefined) kept.push(entry as T);
      else {
        this.#events.emit(
          'warning',
          new MalformedMessageError(`${method} entry dropped: ${problem}`, {
            url: this.url,
            method,
          }),
        );
      }
    }
    return kept;
  }

  /**
   * Runs one call under its deadline (`shared`, for the pages of one list), and settles what its
   * error says about the call: whether it may have run, and whether sending it again is safe.
   * A call that fails ends its deadline: whatever it left running (a request a handler's failure
   * abandoned, the handlers of its other questions) stops with it. `done` reads the answer and
   * `failed` may recover from the error, in the request's last step (a callTool's result is made
   * there, on the call's one promise); without them the answer is the CallResult.
   */
  #request<T = CallResult>(
    start: CallStart | Operation,
    options: CallToolOptions,
    shared?: Deadline,
    done?: (answer: CallResult, where: ErrorContext) => T,
    failed?: (error: Error, where: ErrorContext) => Promise<T>,
  ): Promise<T> {
    const call: CallStart = 'method' in start ? { operation: start } : start;
    // Where the call is, for its deadline and its errors: one object per call.
    const where: ErrorContext =
      'operation' in call
        ? { url: this.url, method: call.operation.method, tool: call.operation.tool }
        : { url: this.url, method: 'tools/call', tool: call.handle.tool };
    if (this.#closing) return Promise.reject(new ClientClosedError(where));
    // The first operation learns where spans go; every later one knows it at once.
    const observer = this.#observer;
    if (observer === undefined)
      return this.#observe().then(() => this.#request(start, options, shared, done, failed));
    const own = shared ? undefined : callDeadline(options, this.#options, where);
    const deadline = (shared ?? own)!;
    const span = observer && !observer.quiet?.() ? this.#operationSpan(observer, call) : NO_SPAN;
    bindSpan(deadline, span);
    this.#calls.add(deadline);
    const admission = this.#policy?.admission;
    const running = admission
      ? this.#admitted(admission, call, where, span, deadline, options)
      : this.#begin(call, where, span, deadline, options);
    // Callbacks, not an async frame: on a fast server the frame cost more than the rest.
    return running.then(
      (answer) => {
        span.end({ toolError: answer.result['isError'] === true });
        this.#calls.delete(deadline);
        own?.[Symbol.dispose]();
        return done ? done(answer, where) : (answer as T);
      },
      (error: unknown) => {
        const typed = settle(typedError(error, where), {
          mayHaveRun: deadline.mayHaveRun,
          idempotent: 'operation' in call && call.operation.idempotent,
        });
        span.end({ error: typed });
        deadline.abort(asError(typed));
        this.#calls.delete(deadline);
        own?.[Symbol.dispose]();
        if (failed) return failed(asError(typed), where);
        throw typed;
      },
    );
  }

  /** The call started: on the dialect, connecting first if there is none yet. */
  #begin(
    call: CallStart,
    where: ErrorContext,
    span: Span,
    deadline: Deadline,
    options: CallToolOptions,
  ): Promise<CallResult> {
    try {
      const dialect = this.#dialect;
      return dialect
        ? this.#run(dialect, call, where, span, deadline, options)
        : this.#connected(options, deadline).then((connected) =>
            this.#run(connected, call, where, span, deadline, options),
          );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The call started once the policy gives it a slot (waiting under its deadline), the slot
   * given back when it settles; a 429 it meets holds every call to the server.
   */
  #admitted(
    admission: Admission,
    call: CallStart,
    where: ErrorContext,
    span: Span,
    deadline: Deadline,
    options: CallToolOptions,
  ): Promise<CallResult> {
    // A server's Retry-After holds every call, but no longer than the client waits out for one
    // call (`retry.maxRetryAfterMs`): a hostile 317 years must not stall the fleet.
    const cap = this.#options.retry.maxRetryAfterMs;
    onPushback(deadline, (retryAfterMs) => admission.pushback(Math.min(retryAfterMs, cap)));
    const waiting = admission.enter(deadline, where);
    // A call that left the queue (its deadline ended) never had a slot to give back.
    let entered = waiting === undefined;
    // The shared slot's lease, when the store holds `concurrency` across clients.
    let lease: string | undefined;
    const started = waiting
      ? waiting.then((taken) => {
          entered = true;
          lease = taken;
          return this.#begin(call, where, span, deadline, options);
        })
      : this.#begin(call, where, span, deadline, options);
    return started.then(
      (answer) => {
        admission.exit(lease);
        return answer;
      },
      (error: unknown) => {
        // Retries off, the 429 arrives here instead of in retry.ts: it holds the others all the same.
        const { status, retryAfterMs } = error as { status?: unknown; retryAfterMs?: unknown };
        if (isMcpError(error) && status === 429 && typeof retryAfterMs === 'number') {
          admission.pushback(Math.min(retryAfterMs, cap));
        }
        if (entered) admission.exit(lease);
        throw error;
      },
    );
  }

  /** One call on a connected dialect: what the server said it cannot do is answered here. */
  #run(
    dialect: Dialect,
    call: CallStart,
    where: ErrorContext,
    span: Span,
    deadline: Deadline,
    options: CallToolOptions,
  ): Promise<CallResult> {
    if (span !== NO_SPAN) span.set(connectedAttributes(dialect));
    if ('operation' in call) {
      const gap = undeclared(call.operation.method, dialect.server.capabilities, where);
      if (gap && 'error' in gap) throw gap.error;
      if (gap) return Promise.resolve({ result: gap.result, afterInput: false });
    }
    if ('handle' in call && call.handle.dialect !== dialect.name) {
      throw usageError(
        `the handle was issued in the ${call.handle.dialect} dialect, this client speaks ${dialect.name}`,
      );
    }
    const { onProgress, onPartial, onStatus } = options;
    checkCallbacks(options);
    const context: CallContext = { deadline, onStatus };
    if (onProgress) {
      context.onProgress = (report: Progress) => {
        if (this.#options.resetTimeoutOnProgress) deadline.extend();
        onProgress(report);
      };
    }
    if (onPartial) context.onPartial = onPartial;
    const sent = withTraceContext(call, dialect, span);
    // A call's own headers, on its own requests only (not on the listing that looked it up).
    return options.headers && where.method === 'tools/call'
      ? callHeaders.run({ ...options.headers }, () =>
          runCall(dialect, sent, context, this.#callSupport),
        )
      : runCall(dialect, sent, context, this.#callSupport);
  }

  #operationSpan(observer: Observer, call: CallStart): Span {
    const { name, attributes } = describeOperation(call);
    return observer.operation(name, { ...attributes, ...this.#peer });
  }

  /** Loads the observer the `tracing` option asks for, once; a failure to is a warning. */
  #observe(): Promise<Observer | null> {
    this.#observing ??= loadObserver(this.#options.tracing).then(({ observer, error }) => {
      if (error) this.#events.emit('warning', error);
      this.#observer = observer ?? null;
      return this.#observer;
    });
    return this.#observing;
  }

  /** The dialect, connecting first if needed. Concurrent callers share one connection attempt. */
  async #connected(options: RequestOptions, deadline?: Deadline): Promise<Dialect> {
    if (this.#dialect) return this.#dialect;
    if (this.#closing) throw new ClientClosedError({ url: this.url, method: 'initialize' });
    this.#connecting ??= this.#open(deadline && spanOf(deadline)).then(
      (dialect) => {
        this.#dialect = dialect;
        return dialect;
      },
      (error: unknown) => {
        this.#connecting = undefined;
        throw error;
      },
    );
    const own = deadline
      ? undefined
      : callDeadline(options, this.#options, { url: this.url, method: 'initialize' });
    try {
      return await raceAbort(this.#connecting, (deadline ?? own)!.signal);
    } finally {
      own?.[Symbol.dispose]();
    }
  }

  /** Connects, in a `connect` span: a child of the operation that needed it, or its own. */
  async #open(parent: Span | undefined): Promise<Dialect> {
    const options = this.#options;
    const observer = this.#observer === undefined ? await this.#observe() : this.#observer;
    // Connecting is shared by every call that waits for it: the client's limits, no one's signal.
    using deadline = callDeadline({}, options, { url: this.url, method: 'initialize' });
    const span =
      parent?.child('connect', this.#peer) ?? observer?.operation('connect', this.#peer) ?? NO_SPAN;
    bindSpan(deadline, span);
    this.#calls.add(deadline);
    try {
      // The dialects and their channels load with the first connection, not with the package.
      const { openDialect } = await import('./connection.ts');
      const dialect = await openDialect(
        options,
        this.#gatedDispatcher,
        {
          notification: (message) => {
            const event = eventOf(message);
            if (event) this.#changed(event);
            this.#events.notify(message, event);
          },
          warning: (error) => this.#events.emit('warning', error),
          stale: () => this.#cache.drop(),
          stderr: (line) => this.#events.emit('stderr', line),
        },
        deadline,
        this.#callSupport.ask,
      );
      span.set(connectedAttributes(dialect));
      span.end();
      return dialect;
    } catch (error) {
      span.end({ error });
      throw error;
    } finally {
      this.#calls.delete(deadline);
    }
  }

  /** What a server's notice changes in the client, before any listener hears of it. */
  #changed(event: ClientEvent): void {
    if (event[0] === 'elicitationComplete') this.#callSupport.urlCompletions.complete(event[1]);
    else dropStale(this.#cache, event);
  }
}
/**
 * Creates a client for a server behind a URL, or for a local server started as a child process
 * (`{ command, args, cwd, env }`). Nothing is sent, and nothing started, until the first call (or
 * `connect()`).
 */
export function createMcpClient(server: ClientTarget, options?: ClientOptions): McpClient {
  return new McpClient(server, options);
}

/** The operation that calls tool `name`, as its definition (if known) describes it. */
function toolCall(
  name: string,
  params: JsonObject,
  definition: Tool | undefined,
  options: CallToolOptions,
): Operation {
  return {
    method: 'tools/call',
    params,
    idempotent: definition?.annotations?.idempotentHint === true,
    tool: name,
    definition,
    task: options.task,
  };
}

/**
 * A tool call's raw result, checked and validated against the schema `schemaOf` picks. Whatever
 * goes wrong in here leaves as a toolwire error: the server has already run the call.
 */
function finished(raw: JsonObject, tool: Tool | undefined, context: ErrorContext): CallToolResult {
  try {
    const result = toCallToolResult(raw, context);
    // A deferred call's handle has no output yet to check.
    if (!result.pending) checkStructuredContent(result, tool?.outputSchema, context);
    return result;
  } catch (error) {
    // The server has run the call: whatever failed here says so.
    throw settle(typedError(error, context), { mayHaveRun: true, idempotent: false });
  }
}

const CALLBACKS = ['onProgress', 'onPartial', 'onStatus'] as const;

/** A callback that is not a function would fail only when the server first reports: now, instead. */
function checkCallbacks(options: CallToolOptions): void {
  for (const key of CALLBACKS) {
    const callback = options[key];
    if (callback !== undefined && typeof callback !== 'function') {
      throw usageError(`expected \`${key}\` to be a function, got ${typeof callback}`);
    }
  }
}

/** Each listing indexed by name once, on first use: a call finds its tool without a scan. */
const toolIndexes = new WeakMap<readonly Tool[], Map<string, Tool>>();

function toolIn(tools: readonly Tool[] | undefined, name: string): Tool | undefined {
  if (tools === undefined) return undefined;
  let index = toolIndexes.get(tools);
  if (index === undefined) {
    index = new Map();
    // The first of a name wins, as a scan would find it.
    for (const tool of tools) if (!index.has(tool.name)) index.set(tool.name, tool);
    toolIndexes.set(tools, index);
  }
  return index.get(name);
}

/** What is wrong with a tool entry of a listing, if anything: the client needs a name and a schema. */
function isTool(entry: unknown): string | undefined {
  if (!isObject(entry)) return `${entry === null ? 'null' : typeof entry} instead of a tool`;
  if (typeof entry['name'] !== 'string' || entry['name'] === '') return 'a tool without a name';
  if (!isObject(entry['inputSchema']))
    return `tool "${entry['name']}" without an inputSchema object`;
  return undefined;
}

function expectArray(result: JsonObject, key: string, method: string, url: string): JsonObject {
  if (!Array.isArray(result[key])) {
    throw new MalformedMessageError(`${method} result without a "${key}" array`, { url, method });
  }
  return result;
}
