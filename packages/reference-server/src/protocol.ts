import { APPS_EXTENSION } from './apps.ts';
import { complete } from './completion.ts';
import type { RequestContext } from './context.ts';
import { ErrorCode, isObject, type JsonObject, RpcError, type RpcRequest } from './jsonrpc.ts';
import { isLoggingLevel } from './logging.ts';
import { getPrompt, listPrompts } from './prompts.ts';
import {
  listResources,
  listResourceTemplates,
  readResource,
  subscribe,
  unsubscribe,
} from './resources.ts';
import {
  getSkill,
  listSkills,
  readDirectory,
  SKILLS_CAPABILITY,
  SKILLS_EXTENSION,
} from './skills.ts';
import { TASKS_SINCE } from './tasks/call.ts';
import { LEGACY_TASK_METHODS } from './tasks/methods.ts';
import { callTool, listTools } from './tools.ts';

/** `serverInfo.name` in the initialize result. */
export const SERVER_NAME = 'toolwire-reference-server';
/** `serverInfo.version`; kept in step with package.json by hand (the build cannot import it). */
export const SERVER_VERSION = '0.1.0';

export const INSTRUCTIONS =
  'Deterministic MCP reference server for tests. Tools: echo, add, bad_structure, progress, slow, ' +
  'fail, media, count, toggle_tool, ping_client, log, large, bump; tools that ask the client ' +
  '(elicitation, sampling, roots): elicit, elicit_url, sample, list_roots, survey; tools that ' +
  'run as tasks: slow_task, task_required, task_needs_input, task_fails. ' +
  'Resources live under ref://, ' +
  'items follow the template ref://items/{id}; prompts: greet, summarize.';

/** Picks the version to answer `initialize` with: the client's if supported, else our newest. */
export function negotiateVersion(requested: string, supported: readonly string[]): string {
  if (supported.includes(requested)) return requested;
  // Version strings are dates, so the lexicographic maximum is the newest.
  return [...supported].sort().at(-1) ?? requested;
}

/** Checks the initialize params and returns the version the client asked for. */
export function requestedVersion(params: unknown): string {
  if (!isObject(params) || typeof params['protocolVersion'] !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, 'initialize needs a string protocolVersion');
  }
  const { capabilities, clientInfo } = params;
  if (!isObject(capabilities)) {
    throw new RpcError(ErrorCode.InvalidParams, 'initialize needs a capabilities object');
  }
  if (
    !isObject(clientInfo) ||
    typeof clientInfo['name'] !== 'string' ||
    typeof clientInfo['version'] !== 'string'
  ) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'initialize needs clientInfo with name and version',
    );
  }
  return params['protocolVersion'];
}

/** The initialize result for a negotiated version. */
export function initializeResult(version: string): JsonObject {
  return {
    protocolVersion: version,
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
      ...(version >= TASKS_SINCE
        ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
        : {}),
      extensions: { [APPS_EXTENSION]: {}, [SKILLS_EXTENSION]: SKILLS_CAPABILITY },
    },
    serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    instructions: INSTRUCTIONS,
  };
}

type Handler = (params: JsonObject, ctx: RequestContext) => unknown;

function setLevel(params: JsonObject, ctx: RequestContext): JsonObject {
  if (!isLoggingLevel(params['level'])) {
    throw new RpcError(ErrorCode.InvalidParams, `Unknown log level: ${String(params['level'])}`);
  }
  // Stateless requests have no session to remember the level in; accepting it is still correct.
  if (ctx.session !== undefined) ctx.session.logLevel = params['level'];
  return {};
}

// A Map, not an object literal, so that methods like "constructor" or "__proto__" are not found.
const HANDLERS = new Map<string, Handler>([
  ['ping', () => ({})],
  ['tools/list', listTools],
  ['tools/call', callTool],
  ['resources/list', listResources],
  ['resources/templates/list', listResourceTemplates],
  ['resources/read', readResource],
  ['resources/subscribe', subscribe],
  ['resources/unsubscribe', unsubscribe],
  ['prompts/list', (params, ctx) => listPrompts(params, ctx.fixtures)],
  ['prompts/get', (params, ctx) => getPrompt(params, ctx.fixtures)],
  ['completion/complete', (params, ctx) => complete(params, ctx.fixtures)],
  ['logging/setLevel', setLevel],
  ['skills/list', listSkills],
  ['skills/get', getSkill],
  ['resources/directory/read', readDirectory],
  ...LEGACY_TASK_METHODS,
]);

/** Runs one request (other than initialize) and returns its result; errors are thrown as RpcError. */
export async function dispatch(request: RpcRequest, ctx: RequestContext): Promise<unknown> {
  const handler = HANDLERS.get(request.method);
  if (handler === undefined) {
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }
  const params = request.params ?? {};
  if (!isObject(params)) throw new RpcError(ErrorCode.InvalidParams, 'params must be an object');
  return handler(params, ctx);
}
