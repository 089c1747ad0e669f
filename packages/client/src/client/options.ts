/**
 * Every option the client takes, its default, and the one function that validates and merges
 * them. Lower layers receive resolved values and never see `undefined`.
 */
import type { Dispatcher } from 'undici';
import packageJson from '../../package.json' with { type: 'json' };
import { APP_MIME_TYPE, APPS_EXTENSION } from '../apps/apps.ts';
import { checkAuth, type HeadersSource } from '../auth/gate.ts';
import type { LoopbackAuthorization } from '../auth/loopback.ts';
import type {
  AuthOption,
  AuthProvider,
  MachineGrant,
  OAuthOptions,
  RegisteredClient,
} from '../auth/types.ts';
import { type HandleStore, memoryHandleStore } from '../call/handles.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import { checkKeys, type OptionKeys, type OptionShape } from '../core/option-keys.ts';
import type { RetryPolicy } from '../core/types.ts';
import {
  DIALECT_DESCRIPTORS,
  DIALECTS,
  type DialectChoice,
  descriptorNamed,
  dialectsFor,
  mediumOf,
} from '../dialects/registered.ts';
import type { Medium } from '../dialects/shared.ts';
import { memoryVerdictStore, type VerdictStore } from '../dialects/verdicts.ts';
import { LEGACY_VERSIONS, MODERN_VERSIONS, type ProtocolChoice } from '../dialects/versions.ts';
import type { WebtoolsOptions } from '../dialects/webtools/index.ts';
import type {
  ElicitationHandler,
  ElicitationMode,
  Handlers,
  RootsOption,
  SamplingHandler,
} from '../handlers/types.ts';
import { checkPolicy, POLICY_KEYS } from '../policy/check.ts';
import type { CallPolicy } from '../policy/types.ts';
import { SKILLS_EXTENSION } from '../skills/extension.ts';
import type { TracingOption } from '../telemetry/load.ts';
import {
  isStdioServer,
  type ResolvedStdio,
  resolveStdio,
  type StdioServer,
} from './stdio-server.ts';

export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
}

export interface ClientOptions {
  /**
   * Who the client says it is in `initialize`.
   * @default { name: 'toolwire', version: <package version> }
   */
  clientInfo?: ClientInfo;
  /**
   * Which protocol to speak. `'auto'` asks the server (`server/discover`) and takes the newest
   * revision both sides speak, stepping down to the stateful revisions for a legacy server.
   * `'modern'` or `'legacy'` pins the era; a revision pins it exactly and sends no probe (for a
   * modern revision, not even `server/discover`).
   * @default 'auto'
   */
  protocolVersion?: ProtocolChoice;
  /**
   * Which dialect to speak. `'auto'` probes for MCP first, then Webtools and MCP-lite (see the
   * README's "Detection"); `'mcp'` probes for MCP only; a dialect's name (`'mcp-stateless'`,
   * `'mcp-stateful'`, `'mcp-sse'`, `'mcp-lite'`, `'webtools'`) speaks that one and nothing else.
   * @default 'auto'
   */
  dialect?: DialectChoice;
  /**
   * For a Webtools server: the application's `config`, a pinned `version` or stored `metadata` /
   * `digest` (lock-in), what to do when the metadata changed (`onChange`), and the `sessionId`.
   * @default {}
   */
  webtools?: WebtoolsOptions;
  /**
   * Where negotiation verdicts are kept, per endpoint URL, so that the next connection to the
   * same URL skips the probe. One store given to several clients is shared by them.
   * @default a new in-memory store for this client
   */
  verdicts?: VerdictStore;
  /**
   * Extra headers on every HTTP request, or a function (sync or async) asked for them before each
   * request, with its URL, method and signal. HTTP only: a local (stdio) server refuses it with a
   * TypeError.
   * @default {}
   */
  headers?: Record<string, string> | HeadersSource;
  /**
   * Credentials for the server, on every request to its origin and on no other: a bearer token,
   * a function that returns one (asked before each request, and again after a 401), a provider
   * of your own (`{ headers, refused? }`), or OAuth 2.1 options (see the README's
   * "Authorization"). Nothing of OAuth is loaded unless it is asked for.
   * @default undefined (no credentials)
   */
  auth?: AuthOption;
  /**
   * Milliseconds a call may take when the server reports no progress.
   * @default 60_000
   */
  timeoutMs?: number;
  /**
   * The hard cap on a call's duration, however much progress the server reports.
   * @default 600_000
   */
  maxTimeoutMs?: number;
  /**
   * Whether a progress notification restarts the call's timeout (up to `maxTimeoutMs`).
   * @default true
   */
  resetTimeoutOnProgress?: boolean;
  /**
   * Milliseconds to wait for a TCP connection. For a local (stdio) server: how long it may stay
   * silent on the `server/discover` probe before it is taken for a legacy server.
   * @default 10_000
   */
  connectTimeoutMs?: number;
  /**
   * The largest response body the client reads, in bytes.
   * @default 16_777_216 (16 MiB)
   */
  maxResponseBytes?: number;
  /**
   * The largest single SSE event the client accepts, in characters of its data.
   * @default 4_194_304 (4 Mi)
   */
  maxEventSize?: number;
  /**
   * How requests are sent again after a failure the server cannot have acted on, or any
   * failure of an idempotent request. See the README's "Retries".
   * `maxResumes` bounds how often one call's event stream is resumed (GET + Last-Event-ID).
   * @default { retries: 3, minDelayMs: 200, maxDelayMs: 5_000, maxRetryAfterMs: 30_000, maxResumes: 1_000 }
   */
  retry?: Partial<RetryPolicy>;
  /**
   * Open the GET stream for messages the server sends outside any call (list changes, resource
   * updates, log messages), and keep it open with bounded, jittered reconnects.
   * @default true
   */
  listen?: boolean;
  /**
   * How many times in a row a broken stream (the GET stream, or a call's stream with event ids)
   * is reconnected before the client gives up on it.
   * @default 5
   */
  reconnectAttempts?: number;
  /**
   * How many pages of one list the client follows before it fails with TooManyPagesError (a
   * server whose cursor never ends, say).
   * @default 1_000
   */
  maxPages?: number;
  /**
   * The most bytes one list may take across all its pages (as received) before it fails with
   * ResponseTooLargeError; each page is also bounded by `maxResponseBytes`.
   * @default 67_108_864 (64 MiB)
   */
  maxListBytes?: number;
  /**
   * The undici dispatcher to send with. When given, the client uses it as is and leaves closing
   * it to the caller; otherwise the client owns one pooled Agent and closes it on `close()`.
   * HTTP only: a local (stdio) server refuses it with a TypeError.
   * @default a new undici Agent
   */
  dispatcher?: Dispatcher;
  /**
   * Answers the server's `elicitation/create`: a form for the user to fill in, or a URL for them
   * to open. Registering it declares the `elicitation` capability. See the README's "Elicitation".
   * @default undefined (the capability is not declared)
   */
  onElicitation?: ElicitationHandler;
  /**
   * The elicitation modes `onElicitation` handles; a mode left out is not declared, and a server
   * that asks for it anyway gets an error reply.
   * @default ['form', 'url']
   */
  elicitationModes?: readonly ElicitationMode[];
  /**
   * Answers the server's `sampling/createMessage` with a completion from the application's model.
   * Registering it declares the `sampling` capability. See the README's "Sampling".
   * @default undefined (the capability is not declared)
   */
  onSampling?: SamplingHandler;
  /**
   * Whether `onSampling` takes `tools` and `toolChoice` (declares `sampling.tools`).
   * @default false
   */
  samplingTools?: boolean;
  /**
   * The roots the server may work in, or a function that lists them when asked. Giving them
   * declares the `roots` capability; call `client.rootsChanged()` when a function's answer changes.
   * @default undefined (the capability is not declared)
   */
  roots?: RootsOption;
  /**
   * How many times one call may be answered with `input_required` (2026-07-28) or a -32042 URL
   * elicitation (2025-11-25) before it fails with InputRoundsExceededError.
   * @default 10
   */
  maxInputRounds?: number;
  /**
   * Wait for deferred work by itself: a task (2026-07-28, 2025-11-25) is polled and an MCP-lite
   * promise redeemed until the answer is in, so `callTool` resolves with the final result. Off,
   * a deferred call resolves at once with a `pending` handle for `client.redeem`, and MCP-lite's
   * `redeem` tool is offered to models. See the README's "Long-running work".
   * @default true
   */
  autoRedeem?: boolean;
  /**
   * Where the handles of deferred calls are kept while they are waited on: saved when the server
   * defers a call, deleted when its answer is in. Persist them to redeem after a crash.
   * @default a new in-memory store (`memoryHandleStore()`)
   */
  handles?: HandleStore;
  /**
   * OpenTelemetry spans: one per operation, with children for probes, retries, input rounds and
   * polls, and the trace context in each MCP request's `_meta`. On when `@opentelemetry/api` is
   * installed (it is loaded then, and only then); `false` never loads it; `{ tracerProvider }`
   * reports to that provider instead of the global one. See the README's "Observability".
   * @default true
   */
  tracing?: TracingOption;
  /**
   * The extensions the application supports, by identifier (`vendor/name`), each with its
   * settings object: declared in `capabilities.extensions`, in `initialize` for the legacy
   * revisions and on every request at 2026-07-28.
   * @default {} (at 2026-07-28 the client declares the tasks extension, which it handles itself)
   */
  extensions?: Record<string, JsonObject>;
  /**
   * The application renders MCP Apps views: declares the `io.modelcontextprotocol/ui` extension
   * with the MIME types it renders (`true`: `text/html;profile=mcp-app`). See the README's
   * "MCP Apps".
   * @default false
   */
  apps?: boolean | { mimeTypes: readonly string[] };
  /**
   * The application uses skills (`io.modelcontextprotocol/skills`): declares the extension, in
   * both eras, and enables `listSkills`, `getSkill` and `loadSkill`. See docs/skills.md.
   * @default false
   */
  skills?: boolean;
  /**
   * How calls to this server are paced and which results are reused: at most `concurrency` in
   * flight (the rest wait in order, under their own deadline), `rate` starts per interval, a
   * 429's Retry-After holding every call, and `reuse` of read-only idempotent tools' results for
   * `ttlMs`; `store` shares all of it across workers. See docs/options.md's "Call policy".
   * @default undefined (no limit, nothing reused)
   */
  policy?: CallPolicy;
}

/** The keys of a grant, by its `type`; an unknown type is left to `checkAuth`. */
const GRANT_KEYS: {
  readonly [T in MachineGrant['type']]: OptionKeys<Extract<MachineGrant, { type: T }>>;
} = {
  client_credentials: { type: true },
  jwt_bearer: { type: true, assertion: true },
  enterprise: {
    type: true,
    idp: {
      tokenEndpoint: true,
      issuer: true,
      clientId: true,
      clientSecret: true,
      idToken: true,
    } satisfies OptionKeys<Extract<MachineGrant, { type: 'enterprise' }>['idp']>,
  },
};

const OAUTH_KEYS = {
  authorize: true,
  redirectUri: true,
  client: {
    clientId: true,
    clientSecret: true,
    privateKey: true,
    signingAlgorithm: true,
    authMethod: true,
    issuer: true,
  } satisfies OptionKeys<RegisteredClient>,
  clientMetadataUrl: true,
  clientName: true,
  applicationType: true,
  grant: (grant) => GRANT_KEYS[(grant as { type?: MachineGrant['type'] }).type!],
  scopes: true,
  offlineAccess: true,
  dpop: true,
  store: true,
  maxStepUps: true,
  // The loopback helper is given as `auth` whole: its `close` comes along.
  close: true,
} satisfies OptionKeys<OAuthOptions & Pick<LoopbackAuthorization, 'close'>>;

/**
 * Every key `ClientOptions` takes, and the keys of the objects in it: an option added to the
 * interface and not here does not compile. `true` where the keys are the user's, not ours.
 */
export const CLIENT_OPTION_KEYS = {
  clientInfo: true,
  protocolVersion: true,
  dialect: true,
  webtools: {
    config: true,
    version: true,
    metadata: true,
    digest: true,
    onChange: true,
    sessionId: true,
  } satisfies OptionKeys<WebtoolsOptions>,
  verdicts: true,
  headers: true,
  // A provider is the application's own object: only OAuth options are ours to name.
  auth: (auth) =>
    typeof (auth as Partial<AuthProvider>).headers === 'function' ? undefined : OAUTH_KEYS,
  timeoutMs: true,
  maxTimeoutMs: true,
  resetTimeoutOnProgress: true,
  connectTimeoutMs: true,
  maxResponseBytes: true,
  maxEventSize: true,
  retry: {
    retries: true,
    minDelayMs: true,
    maxDelayMs: true,
    maxRetryAfterMs: true,
    maxResumes: true,
  } satisfies OptionKeys<RetryPolicy>,
  listen: true,
  reconnectAttempts: true,
  maxPages: true,
  maxListBytes: true,
  dispatcher: true,
  onElicitation: true,
  elicitationModes: true,
  onSampling: true,
  samplingTools: true,
  roots: true,
  maxInputRounds: true,
  autoRedeem: true,
  handles: true,
  tracing: { tracerProvider: true },
  extensions: true,
  apps: { mimeTypes: true },
  skills: true,
  policy: POLICY_KEYS,
} as const satisfies OptionKeys<ClientOptions>;

/** A local server's target: `env` holds the user's variables, not option names. */
const STDIO_KEYS = {
  command: true,
  args: true,
  cwd: true,
  env: true,
} as const satisfies OptionKeys<StdioServer>;

export interface ResolvedOptions {
  /** The URL, or for a local server its command line as errors name it. */
  url: string;
  /** Set for a local server (stdio). */
  stdio: ResolvedStdio | undefined;
  clientInfo: ClientInfo;
  protocolVersion: ProtocolChoice;
  dialect: DialectChoice;
  webtools: WebtoolsOptions;
  /** The application's verdict store, if it gave one. */
  verdicts: VerdictStore | undefined;
  /** The client's own memory of verdicts: the store without `verdicts`, the fallback when it fails. */
  ownVerdicts: VerdictStore;
  headers: Record<string, string>;
  /** The `headers` option when it is a function. */
  headersSource: HeadersSource | undefined;
  auth: AuthOption | undefined;
  timeoutMs: number;
  maxTimeoutMs: number;
  resetTimeoutOnProgress: boolean;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  maxEventSize: number;
  retry: RetryPolicy;
  listen: boolean;
  reconnectAttempts: number;
  maxPages: number;
  maxListBytes: number;
  dispatcher: Dispatcher | undefined;
  handlers: Handlers;
  maxInputRounds: number;
  autoRedeem: boolean;
  handles: HandleStore;
  tracing: TracingOption;
  /** Every extension declared, `apps` and `skills` included. */
  extensions: JsonObject;
  skills: boolean;
  policy: CallPolicy | undefined;
}

export const DEFAULTS = Object.freeze({
  clientInfo: Object.freeze({ name: 'toolwire', version: packageJson.version }),
  protocolVersion: 'auto' as ProtocolChoice,
  dialect: 'auto' as DialectChoice,
  webtools: Object.freeze({}) as WebtoolsOptions,
  timeoutMs: 60_000,
  maxTimeoutMs: 600_000,
  resetTimeoutOnProgress: true,
  connectTimeoutMs: 10_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxEventSize: 4 * 1024 * 1024,
  retry: Object.freeze({
    retries: 3,
    minDelayMs: 200,
    maxDelayMs: 5_000,
    maxRetryAfterMs: 30_000,
    maxResumes: 1_000,
  }),
  listen: true,
  reconnectAttempts: 5,
  maxPages: 1_000,
  // The largest servers (GitHub's, say) list a few MB of tools: room for ten times that, yet far
  // short of what 1,000 pages of 16 MiB would take, which kills the process beyond any catch.
  maxListBytes: 64 * 1024 * 1024,
  elicitationModes: Object.freeze(['form', 'url'] as ElicitationMode[]),
  samplingTools: false,
  maxInputRounds: 10,
  autoRedeem: true,
  tracing: true as TracingOption,
});

/**
 * Where one client's server is: a URL, or the command that starts a local one. (`ServerTarget`,
 * for several clients, also takes `{ url, ...options }`.)
 */
export type ClientTarget = string | URL | StdioServer;

export function resolveOptions(server: ClientTarget, options: ClientOptions = {}): ResolvedOptions {
  checkKeys(options, CLIENT_OPTION_KEYS satisfies OptionShape);
  if (isStdioServer(server)) checkKeys(server, STDIO_KEYS);
  const retry = { ...DEFAULTS.retry, ...options.retry };
  const stdio = isStdioServer(server) ? resolveStdio(server, options) : undefined;
  const resolved: ResolvedOptions = {
    url: stdio ? stdio.label : parseUrl(server as string | URL).href,
    stdio,
    clientInfo: options.clientInfo ?? { ...DEFAULTS.clientInfo },
    protocolVersion: options.protocolVersion ?? DEFAULTS.protocolVersion,
    dialect: options.dialect ?? DEFAULTS.dialect,
    webtools: { ...options.webtools },
    verdicts: options.verdicts,
    ownVerdicts: memoryVerdictStore(),
    headers: typeof options.headers === 'function' ? {} : { ...options.headers },
    headersSource: typeof options.headers === 'function' ? options.headers : undefined,
    auth: options.auth,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxTimeoutMs: options.maxTimeoutMs ?? DEFAULTS.maxTimeoutMs,
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? DEFAULTS.resetTimeoutOnProgress,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    maxEventSize: options.maxEventSize ?? DEFAULTS.maxEventSize,
    retry,
    listen: options.listen ?? DEFAULTS.listen,
    reconnectAttempts: options.reconnectAttempts ?? DEFAULTS.reconnectAttempts,
    maxPages: options.maxPages ?? DEFAULTS.maxPages,
    maxListBytes: options.maxListBytes ?? DEFAULTS.maxListBytes,
    dispatcher: options.dispatcher,
    handlers: {
      onElicitation: options.onElicitation,
      elicitationModes: [...(options.elicitationModes ?? DEFAULTS.elicitationModes)],
      onSampling: options.onSampling,
      samplingTools: options.samplingTools ?? DEFAULTS.samplingTools,
      roots: options.roots,
    },
    maxInputRounds: options.maxInputRounds ?? DEFAULTS.maxInputRounds,
    autoRedeem: options.autoRedeem ?? DEFAULTS.autoRedeem,
    handles: options.handles ?? memoryHandleStore(),
    tracing: options.tracing ?? DEFAULTS.tracing,
    extensions: extensionsOf(options),
    skills: options.skills === true,
    policy: options.policy,
  };
  for (const key of [
    'timeoutMs',
    'maxTimeoutMs',
    'connectTimeoutMs',
    'maxResponseBytes',
    'maxEventSize',
    'maxListBytes',
  ] as const) {
    positive(key, resolved[key]);
  }
  for (const key of [
    'retries',
    'minDelayMs',
    'maxDelayMs',
    'maxRetryAfterMs',
    'maxResumes',
  ] as const) {
    nonNegative(`retry.${key}`, retry[key]);
  }
  positive('maxPages', resolved.maxPages);
  count('maxPages', resolved.maxPages);
  count('retry.maxResumes', retry.maxResumes);
  nonNegative('reconnectAttempts', resolved.reconnectAttempts);
  nonNegative('maxInputRounds', resolved.maxInputRounds);
  count('maxInputRounds', resolved.maxInputRounds);
  checkHandlers(resolved.handlers);
  checkHandleStore(resolved.handles);
  checkAuth(resolved.auth);
  checkTracing(resolved.tracing);
  checkPolicy(resolved.policy);
  count('retry.retries', retry.retries);
  count('reconnectAttempts', resolved.reconnectAttempts);
  for (const key of ['minDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(retry[key])) {
      throw new TypeError(
        `expected \`retry.${key}\` to be a finite number, got ${String(retry[key])}`,
      );
    }
  }
  const choices: readonly string[] = [
    'auto',
    'modern',
    'legacy',
    ...MODERN_VERSIONS,
    ...LEGACY_VERSIONS,
  ];
  if (!choices.includes(resolved.protocolVersion)) {
    throw new TypeError(
      `expected \`protocolVersion\` to be one of ${choices.join(', ')}, got "${resolved.protocolVersion}"`,
    );
  }
  checkDialect(resolved, stdio ? 'stdio' : mediumOf(resolved.url));
  return resolved;
}

function checkHandlers(handlers: Handlers): void {
  for (const key of ['onElicitation', 'onSampling'] as const) {
    if (handlers[key] !== undefined && typeof handlers[key] !== 'function') {
      throw new TypeError(`expected \`${key}\` to be a function, got ${typeof handlers[key]}`);
    }
  }
  for (const mode of handlers.elicitationModes) {
    if (mode !== 'form' && mode !== 'url') {
      throw new TypeError(
        `expected \`elicitationModes\` to hold 'form' or 'url', got "${String(mode)}"`,
      );
    }
  }
  const { roots } = handlers;
  if (roots !== undefined && typeof roots !== 'function' && !Array.isArray(roots)) {
    throw new TypeError('expected `roots` to be a list of { uri } or a function');
  }
}

/** `extensions` checked, with MCP Apps and skills added when `apps` and `skills` ask for them. */
function extensionsOf(options: ClientOptions): JsonObject {
  const { extensions = {}, apps = false, skills = false } = options;
  if (typeof skills !== 'boolean') throw new TypeError('expected `skills` to be a boolean');
  // Declared as the application enabled it: an empty settings object, as the extension defines.
  if (skills) return withApps({ ...extensionsChecked(extensions), [SKILLS_EXTENSION]: {} }, apps);
  return withApps(extensionsChecked(extensions), apps);
}

function extensionsChecked(extensions: unknown): JsonObject {
  if (!isObject(extensions)) throw new TypeError('expected `extensions` to be an object');
  for (const [id, settings] of Object.entries(extensions)) {
    if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(id)) {
      throw new TypeError(
        `expected an extension identifier such as "com.example/name", got "${id}"`,
      );
    }
    if (!isObject(settings)) {
      throw new TypeError(`expected the settings of the extension "${id}" to be an object`);
    }
  }
  return { ...extensions };
}

function withApps(extensions: JsonObject, apps: ClientOptions['apps']): JsonObject {
  if (apps === false) return extensions;
  const mimeTypes = apps === true ? [APP_MIME_TYPE] : apps?.mimeTypes;
  if (!Array.isArray(mimeTypes) || !mimeTypes.every((type) => typeof type === 'string')) {
    throw new TypeError('expected `apps` to be a boolean or { mimeTypes: string[] }');
  }
  return { ...extensions, [APPS_EXTENSION]: { mimeTypes: [...mimeTypes] } };
}

function checkHandleStore(store: HandleStore): void {
  const methods = store as Partial<Record<keyof HandleStore, unknown>> | null;
  if (
    typeof methods !== 'object' ||
    methods === null ||
    typeof methods.save !== 'function' ||
    typeof methods.delete !== 'function'
  ) {
    throw new TypeError('expected `handles` to be a store with save() and delete()');
  }
}

function checkTracing(tracing: TracingOption): void {
  if (typeof tracing === 'boolean') return;
  const provider = (tracing as { tracerProvider?: { getTracer?: unknown } } | null)?.tracerProvider;
  if (
    typeof tracing !== 'object' ||
    tracing === null ||
    (provider !== undefined && typeof provider?.getTracer !== 'function')
  ) {
    throw new TypeError('expected `tracing` to be a boolean or { tracerProvider }');
  }
}

/**
 * The dialect is one we speak, runs where the server is, and does not contradict the protocol
 * choice; each dialect checks its own options.
 */
function checkDialect(resolved: ResolvedOptions, on: Medium): void {
  const { dialect, protocolVersion: version } = resolved;
  if (!(DIALECTS as readonly string[]).includes(dialect)) {
    throw new TypeError(
      `expected \`dialect\` to be one of ${DIALECTS.join(', ')}, got "${dialect}"`,
    );
  }
  const candidates = dialectsFor(dialect, on);
  if (candidates.length === 0) {
    const here = dialectsFor('auto', on).map(({ name }) => name);
    throw new TypeError(`${WHERE[on]} speaks ${here.join(', ')}, not \`dialect: '${dialect}'\``);
  }
  if (!candidates.some((descriptor) => descriptor.protocols.includes(version))) {
    throw new TypeError(
      descriptorNamed(dialect)
        ? `\`dialect: '${dialect}'\` cannot be combined with \`protocolVersion: '${version}'\``
        : `${WHERE[on]} speaks ${candidates.map(({ name }) => name).join(', ')}, not \`protocolVersion: '${version}'\``,
    );
  }
  for (const descriptor of DIALECT_DESCRIPTORS) descriptor.checkOptions?.(resolved, on);
}

/** Where a server is, as the options' errors say it. */
const WHERE: Record<Medium, string> = {
  http: 'an HTTP URL',
  grpc: 'a grpc URL',
  stdio: 'a local (stdio) server',
};

export function parseUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`expected an absolute http(s) or grpc(s) URL, got "${String(url)}"`);
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (!web && mediumOf(parsed) !== 'grpc') {
    throw new TypeError(`expected an http:, https:, grpc: or grpcs: URL, got "${parsed.protocol}"`);
  }
  if (!web && parsed.hostname === '') {
    throw new TypeError(`expected a grpc URL with a host, got "${String(url)}"`);
  }
  return parsed;
}

function positive(name: string, value: number): void {
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value))) {
    throw new TypeError(`expected \`${name}\` to be a positive number, got ${String(value)}`);
  }
}

/** p-retry takes whole numbers of tries (or Infinity). */
function count(name: string, value: number): void {
  if (!(Number.isInteger(value) || value === Number.POSITIVE_INFINITY)) {
    throw new TypeError(`expected \`${name}\` to be a whole number, got ${String(value)}`);
  }
}

function nonNegative(name: string, value: number): void {
  if (!(typeof value === 'number' && value >= 0 && !Number.isNaN(value))) {
    throw new TypeError(`expected \`${name}\` to be a number >= 0, got ${String(value)}`);
  }
}
