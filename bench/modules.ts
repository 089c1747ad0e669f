/**
 * Each client's id, the driver file that speaks to it, the path it is measured on, and the
 * modules a program imports to use it (for the import-time figure). `baseline` names the raw
 * undici floor its ratios are taken against; for an adapter, the client it wraps.
 */
import { GRPC_PATH, LEGACY_PATH, MODERN_PATH, PROTECTED_PATH, STDIO_PATH } from './protocol.ts';

export interface ClientEntry {
  id: string;
  label: string;
  driver: string;
  path: string;
  baseline: string;
  modules: readonly string[];
  /** A workspace package: its import is timed from dist/ and from its TypeScript sources. */
  fromSources?: boolean;
  /** A framework adapter: only its per-call cost is measured, against the client it wraps. */
  adapter?: boolean;
  /** A local server over stdio: only calls are measured, against the raw pipe to the same child. */
  stdio?: boolean;
  /** Another transport beside its floor: only its connect and its JSON calls are measured. */
  jsonOnly?: boolean;
}

export const CLIENTS: readonly ClientEntry[] = [
  {
    id: 'undici',
    label: 'raw undici (floor)',
    driver: 'undici',
    path: LEGACY_PATH,
    baseline: 'undici',
    modules: ['undici', 'eventsource-parser'],
  },
  {
    id: 'toolwire',
    label: 'toolwire',
    driver: 'toolwire',
    path: LEGACY_PATH,
    baseline: 'undici',
    modules: ['@toolwire/client'],
    fromSources: true,
  },
  {
    id: 'sdk1',
    label: 'official 1.x',
    driver: 'sdk1',
    path: LEGACY_PATH,
    baseline: 'undici',
    modules: [
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/client/streamableHttp.js',
    ],
  },
  {
    id: 'sdk2',
    label: 'official v2',
    driver: 'sdk2',
    path: LEGACY_PATH,
    baseline: 'undici',
    modules: ['@modelcontextprotocol/client'],
  },
  {
    id: 'ai-sdk',
    label: '@ai-sdk/mcp',
    driver: 'ai-sdk',
    path: LEGACY_PATH,
    baseline: 'undici',
    modules: ['@ai-sdk/mcp'],
  },
  {
    id: 'undici-2026',
    label: 'raw undici, 2026-07-28',
    driver: 'undici',
    path: MODERN_PATH,
    baseline: 'undici-2026',
    modules: [],
  },
  {
    id: 'toolwire-2026',
    label: 'toolwire, 2026-07-28',
    driver: 'toolwire',
    path: MODERN_PATH,
    baseline: 'undici-2026',
    modules: [],
  },
];

/**
 * The framework adapters, each measured against the client it wraps (its `baseline`): what one
 * tool call costs through the tool set a framework is handed, beyond the bare `callTool`.
 */
export const ADAPTERS: readonly ClientEntry[] = [
  {
    id: 'toolwire-ai-sdk',
    label: '@toolwire/ai-sdk tool set',
    driver: 'toolwire-ai-sdk',
    path: LEGACY_PATH,
    baseline: 'toolwire',
    modules: [],
    adapter: true,
  },
  {
    id: 'ai-sdk-tools',
    label: '@ai-sdk/mcp tool set',
    driver: 'ai-sdk-tools',
    path: LEGACY_PATH,
    baseline: 'ai-sdk',
    modules: [],
    adapter: true,
  },
  {
    id: 'toolwire-langchain',
    label: '@toolwire/langchain tools',
    driver: 'toolwire-langchain',
    path: LEGACY_PATH,
    baseline: 'toolwire',
    modules: [],
    adapter: true,
  },
  {
    id: 'langchain-adapters',
    label: '@langchain/mcp-adapters tools',
    driver: 'langchain-adapters',
    path: LEGACY_PATH,
    baseline: 'sdk1',
    modules: [],
    adapter: true,
  },
];

/**
 * A local server as a child process (`stdio-server.ts`, dual-era, spoken to at 2026-07-28):
 * toolwire against the floor, a raw newline-JSON pipe to the same child.
 */
export const STDIO: readonly ClientEntry[] = [
  {
    id: 'stdio-raw',
    label: 'raw newline-JSON pipe (floor)',
    driver: 'stdio-raw',
    path: STDIO_PATH,
    baseline: 'stdio-raw',
    modules: [],
    stdio: true,
  },
  {
    id: 'stdio-raw-group',
    label: 'raw pipe, child in its own process group',
    driver: 'stdio-raw-group',
    path: STDIO_PATH,
    baseline: 'stdio-raw',
    modules: [],
    stdio: true,
  },
  {
    id: 'toolwire-stdio',
    label: 'toolwire, stdio',
    driver: 'toolwire-stdio',
    path: STDIO_PATH,
    baseline: 'stdio-raw',
    modules: [],
    stdio: true,
  },
];

/**
 * A protected resource (`/protected`: 2026-07-28 as on `/modern`, behind a bearer token): toolwire
 * given the token, and toolwire getting it with the client credentials grant, against raw undici
 * sending the same header.
 */
export const AUTH: readonly ClientEntry[] = [
  {
    id: 'undici-bearer',
    label: 'raw undici + bearer (floor)',
    driver: 'undici-bearer',
    path: PROTECTED_PATH,
    baseline: 'undici-bearer',
    modules: [],
    jsonOnly: true,
  },
  {
    id: 'toolwire-bearer',
    label: 'toolwire, `auth: token`',
    driver: 'toolwire-bearer',
    path: PROTECTED_PATH,
    baseline: 'undici-bearer',
    modules: [],
    jsonOnly: true,
  },
  {
    id: 'toolwire-oauth',
    label: 'toolwire, client credentials grant',
    driver: 'toolwire-oauth',
    path: PROTECTED_PATH,
    baseline: 'undici-bearer',
    modules: [],
    jsonOnly: true,
  },
];

/**
 * MCP-lite's gRPC binding (`grpc-server.ts`, on the bench server's second port): toolwire against
 * the Connect client it runs on, calling the same RPC with the same stubs.
 */
export const GRPC: readonly ClientEntry[] = [
  {
    id: 'grpc-raw',
    label: 'raw Connect client (floor)',
    driver: 'grpc-raw',
    path: GRPC_PATH,
    baseline: 'grpc-raw',
    modules: [],
    jsonOnly: true,
  },
  {
    id: 'toolwire-grpc',
    label: 'toolwire, grpc://',
    driver: 'toolwire',
    path: GRPC_PATH,
    baseline: 'grpc-raw',
    modules: [],
    jsonOnly: true,
  },
];

/** Everything a round runs, each in its own process. */
export const ENTRIES: readonly ClientEntry[] = [
  ...CLIENTS,
  ...ADAPTERS,
  ...STDIO,
  ...AUTH,
  ...GRPC,
];
