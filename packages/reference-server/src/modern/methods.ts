/**
 * The methods of 2026-07-28. The fixtures are the legacy ones; what differs is around them:
 * `server/discover` instead of `initialize`, every result marked with `resultType` and the
 * server's identity, caching hints on lists and reads, -32602 for an unknown resource, and
 * `x-mcp-header` arguments checked against their headers. `ping`, `logging/setLevel` and
 * `resources/(un)subscribe` are gone, so they are unknown methods here.
 */

import type { IncomingMessage } from 'node:http';
import { APPS_EXTENSION } from '../apps.ts';
import { complete } from '../completion.ts';
import type { RequestContext } from '../context.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from '../protocol.ts';
import { COUNTER_URI, listResources, listResourceTemplates, readResource } from '../resources.ts';
import {
  getSkill,
  listSkills,
  readDirectory,
  SKILLS_CAPABILITY,
  SKILLS_EXTENSION,
} from '../skills.ts';
import { TASKS_EXTENSION } from '../tasks/call.ts';
import { MODERN_TASK_METHODS } from '../tasks/methods.ts';
import { callTool, findTool, listTools } from '../tools.ts';
import { META } from './envelope.ts';
import { checkParamHeaders } from './headers.ts';
import { getModernPrompt, listModernPrompts } from './prompts.ts';

/** How long list, read and discover results stay fresh; the lists change only by the toggles. */
export const TTL_MS = 60_000;

/** Results the caching utility applies to. */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

export const CAPABILITIES: JsonObject = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
  extensions: {
    [TASKS_EXTENSION]: {},
    [APPS_EXTENSION]: {},
    [SKILLS_EXTENSION]: SKILLS_CAPABILITY,
  },
};

/** `req` is the HTTP request, for checks of what it mirrors in headers; stdio has none. */
type Method = (params: JsonObject, ctx: RequestContext, req?: IncomingMessage) => unknown;

/** The `server/discover` result for an endpoint serving `supported`. */
function discover(supported: readonly string[]): JsonObject {
  return {
    supportedVersions: [...supported],
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
  };
}

async function callModernTool(params: JsonObject, ctx: RequestContext, req?: IncomingMessage) {
  const tool = findTool(params['name'], ctx);
  const args = params['arguments'] ?? {};
  if (req !== undefined && tool !== undefined && isObject(args)) {
    checkParamHeaders(req, tool.inputSchema, args);
  }
  return callTool(params, ctx);
}

function readModernResource(params: JsonObject, ctx: RequestContext): JsonObject {
  try {
    const result = readResource(params, ctx);
    // The counter changes whenever bump runs, so it is never fresh.
    return params['uri'] === COUNTER_URI ? { ...result, ttlMs: 0 } : result;
  } catch (error) {
    // 2026-07-28 replaced the old -32002 with Invalid params for an unknown resource.
    if (error instanceof RpcError && error.code === ErrorCode.ResourceNotFound) {
      throw new RpcError(ErrorCode.InvalidParams, error.message, error.data);
    }
    throw error;
  }
}

/** The method table of a modern endpoint serving `supported` (subscriptions/listen is apart). */
export function modernMethods(supported: readonly string[]): ReadonlyMap<string, Method> {
  return new Map<string, Method>([
    ['server/discover', () => discover(supported)],
    ['tools/list', listTools],
    ['tools/call', callModernTool],
    ['resources/list', listResources],
    ['resources/templates/list', listResourceTemplates],
    ['resources/read', readModernResource],
    ['prompts/list', listModernPrompts],
    ['prompts/get', getModernPrompt],
    ['completion/complete', (params, ctx) => complete(params, ctx.fixtures)],
    ['skills/list', listSkills],
    ['skills/get', getSkill],
    ['resources/directory/read', readDirectory],
    ...MODERN_TASK_METHODS,
  ]);
}

/** Adds what every 2026-07-28 result carries: resultType, the server's identity, cache hints. */
export function decorate(method: string, result: unknown): JsonObject {
  const decorated: JsonObject = isObject(result) ? { ...result } : {};
  decorated['resultType'] ??= 'complete';
  if (decorated['resultType'] === 'complete' && CACHEABLE.has(method)) {
    decorated['ttlMs'] ??= TTL_MS;
    // No fixture depends on who asks (only on the request, whose _meta declares the MCP Apps
    // extension or not), so any cache may share the results.
    decorated['cacheScope'] ??= 'public';
  }
  const meta = isObject(decorated['_meta']) ? decorated['_meta'] : {};
  decorated['_meta'] = {
    ...meta,
    [META.serverInfo]: { name: SERVER_NAME, version: SERVER_VERSION },
  };
  return decorated;
}
