import { setTimeout as sleep } from 'node:timers/promises';
import { APP_TOOLS, declaresApps } from './apps.ts';
import { ASKING_TOOLS } from './asking/tools.ts';
import { CONFORMANCE_MRTR_TOOLS } from './conformance/mrtr-tools.ts';
import { SCHEMA_TOOLS } from './conformance/schema-tools.ts';
import { CONFORMANCE_TASK_TOOLS } from './conformance/task-tools.ts';
import { CONFORMANCE_TOOLS } from './conformance/tools.ts';
import { errorResult, text, textResult } from './content.ts';
import type { RequestContext } from './context.ts';
import { ErrorCode, isObject, type JsonObject, notificationMessage, RpcError } from './jsonrpc.ts';
import { isLoggingLevel, LOG_LEVELS } from './logging.ts';
import { PNG_BASE64, WAV_BASE64 } from './media.ts';
import { ASK_NAME_TOOL } from './modern/tools.ts';
import { pageResult, paginate } from './pagination.ts';
import { COUNTER_URI, HELLO_TEXT, HELLO_URI } from './resources.ts';
import { checkArguments } from './schema-check.ts';
import { callTool as callMaybeAsTask, sessionHasTasks, type TaskSupport } from './tasks/call.ts';
import { TASK_TOOLS } from './tasks/tools.ts';

/** How long `ping_client` waits for the client's answer. */
const PING_TIMEOUT_MS = 5000;

/** A fixture tool: its descriptor and what a call does. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
  /** `modern`: listed and callable only in 2026-07-28 (it answers with `input_required`). */
  readonly era?: 'modern';
  /** How it runs as a task (2026-07-28 extension, 2025-11-25 core tasks), when it can. */
  readonly task?: TaskSupport;
  /** An MCP Apps tool: offered only to clients that declared the `io.modelcontextprotocol/ui` extension. */
  readonly apps?: true;
  /** The descriptor's `_meta` (MCP Apps' `ui`, say). */
  readonly meta?: JsonObject;
  run(args: JsonObject, ctx: RequestContext): JsonObject | Promise<JsonObject>;
}

const NO_ARGUMENTS: JsonObject = { type: 'object', additionalProperties: false };

const SUM_SCHEMA: JsonObject = {
  type: 'object',
  properties: { sum: { type: 'number' } },
  required: ['sum'],
};

/** Reads a string argument the input schema already checked; a mismatch here is a server bug. */
function stringArg(args: JsonObject, name: string): string {
  const value = args[name];
  if (typeof value !== 'string')
    throw new RpcError(ErrorCode.InternalError, `${name} is not a string`);
  return value;
}

/** Reads a numeric argument the input schema already checked. */
function numberArg(args: JsonObject, name: string): number {
  const value = args[name];
  if (typeof value !== 'number')
    throw new RpcError(ErrorCode.InternalError, `${name} is not a number`);
  return value;
}

/** Text of exactly `bytes` ASCII characters; a repeating alphabet makes truncation visible. */
function asciiOfLength(bytes: number): string {
  const pattern = 'abcdefghijklmnopqrstuvwxyz0123456789\n';
  return pattern.repeat(Math.ceil(bytes / pattern.length)).slice(0, bytes);
}

const BONUS_TOOL: ToolDefinition = {
  name: 'bonus',
  description: 'Exists only while toggle_tool has switched it on. Returns the text "bonus".',
  inputSchema: NO_ARGUMENTS,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: () => textResult('bonus'),
};

const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'regional',
    // Its point is the Mcp-Param-Region header, which only 2026-07-28 has. First, so that a
    // client reading one page of a 2026-07-28 tools/list finds a tool with x-mcp-header.
    era: 'modern',
    description:
      'Runs a query in a region. The region travels as the Mcp-Param-Region header (x-mcp-header) ' +
      'in 2026-07-28, so intermediaries can route on it.',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', description: 'Where to run it.', 'x-mcp-header': 'Region' },
        query: { type: 'string' },
      },
      required: ['region'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (args) =>
      textResult(`region ${stringArg(args, 'region')}: ${String(args['query'] ?? '')}`),
  },
  {
    name: 'echo',
    description: 'Returns the given text unchanged as a single text block.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to send back.' } },
      required: ['text'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (args) => textResult(stringArg(args, 'text')),
  },
  {
    name: 'add',
    description: 'Adds two numbers; the sum comes back as structured content and as JSON text.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    outputSchema: SUM_SCHEMA,
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (args) => {
      const structured = { sum: numberArg(args, 'a') + numberArg(args, 'b') };
      return { content: [text(JSON.stringify(structured))], structuredContent: structured };
    },
  },
  {
    name: 'bad_structure',
    description: 'Declares the same output schema as add but returns a sum that is not a number.',
    inputSchema: NO_ARGUMENTS,
    outputSchema: SUM_SCHEMA,
    run: () => {
      const structured = { sum: 'not a number' };
      return { content: [text(JSON.stringify(structured))], structuredContent: structured };
    },
  },
  {
    name: 'progress',
    description:
      'Works through `steps` steps, waiting `delayMs` before each, and reports progress after each one when the request carries a progress token.',
    inputSchema: {
      type: 'object',
      properties: {
        steps: { type: 'integer', minimum: 0, maximum: 1000 },
        delayMs: { type: 'integer', minimum: 0, maximum: 60000, default: 10 },
      },
      required: ['steps'],
    },
    run: async (args, ctx) => {
      const steps = numberArg(args, 'steps');
      const delayMs = args['delayMs'] === undefined ? 10 : numberArg(args, 'delayMs');
      for (let step = 1; step <= steps; step++) {
        await sleep(delayMs, undefined, { signal: ctx.signal });
        if (ctx.progressToken === undefined) continue;
        ctx.sendRelated(
          notificationMessage('notifications/progress', {
            progressToken: ctx.progressToken,
            progress: step,
            total: steps,
            message: `step ${step}`,
          }),
        );
      }
      return textResult(`done after ${steps} steps`);
    },
  },
  {
    name: 'slow',
    description: 'Waits `ms` milliseconds, then answers. Cancellable with notifications/cancelled.',
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0, maximum: 600000 } },
      required: ['ms'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: async (args, ctx) => {
      const ms = numberArg(args, 'ms');
      await sleep(ms, undefined, { signal: ctx.signal });
      return textResult(`slept ${ms} ms`);
    },
  },
  {
    name: 'fail',
    description: 'Always fails with a tool execution error (isError: true), not a protocol error.',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The error text to return.' } },
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (args) =>
      errorResult(
        args['message'] === undefined ? 'fail was asked to fail' : stringArg(args, 'message'),
      ),
  },
  {
    name: 'media',
    description:
      'Returns one content block of each non-text kind: image, audio, resource link and embedded resource.',
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: () => ({
      content: [
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        { type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' },
        { type: 'resource_link', uri: HELLO_URI, name: 'hello', mimeType: 'text/plain' },
        {
          type: 'resource',
          resource: { uri: HELLO_URI, mimeType: 'text/plain', text: HELLO_TEXT },
        },
      ],
    }),
  },
  {
    name: 'count',
    description: 'Increments a server-wide call counter and returns its new value.',
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: (_args, ctx) => textResult(String(++ctx.fixtures.calls)),
  },
  {
    name: 'toggle_tool',
    description:
      'Adds the tool "bonus" if it is absent, removes it otherwise, and announces the change.',
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: (_args, ctx) => {
      ctx.fixtures.bonusTool = !ctx.fixtures.bonusTool;
      ctx.notifySessions(notificationMessage('notifications/tools/list_changed'));
      return textResult(ctx.fixtures.bonusTool ? 'bonus tool added' : 'bonus tool removed');
    },
  },
  {
    name: 'ping_client',
    description: 'Sends a ping request to the client and reports whether it answered within 5 s.',
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: true },
    run: async (_args, ctx) => {
      const reply = await ctx.requestClient('ping', PING_TIMEOUT_MS);
      switch (reply.kind) {
        case 'response':
          return reply.response.error === undefined
            ? textResult('client answered ping')
            : errorResult(
                `client answered ping with an error: ${JSON.stringify(reply.response.error)}`,
              );
        case 'unreachable':
          return errorResult('no open stream to send the ping on');
        default:
          return errorResult(`client did not answer ping within ${PING_TIMEOUT_MS / 1000} s`);
      }
    },
  },
  {
    name: 'log',
    description:
      'Emits notifications/message at the given level (if it passes the level set with logging/setLevel).',
    inputSchema: {
      type: 'object',
      properties: {
        level: { type: 'string', enum: [...LOG_LEVELS] },
        message: { type: 'string' },
      },
      required: ['level', 'message'],
    },
    run: (args, ctx) => {
      const level = args['level'];
      if (isLoggingLevel(level) && ctx.logAllows(level)) {
        ctx.sendUnrelated(
          notificationMessage('notifications/message', {
            level,
            logger: 'reference-server',
            data: stringArg(args, 'message'),
          }),
        );
      }
      return textResult('logged');
    },
  },
  {
    name: 'large',
    description: 'Returns one text block of exactly `bytes` ASCII characters.',
    inputSchema: {
      type: 'object',
      properties: { bytes: { type: 'integer', minimum: 0, maximum: 16777216 } },
      required: ['bytes'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (args) => textResult(asciiOfLength(numberArg(args, 'bytes'))),
  },
  {
    name: 'bump',
    description: `Increments ${COUNTER_URI} and notifies the sessions subscribed to it.`,
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: (_args, ctx) => {
      const value = ++ctx.fixtures.counter;
      ctx.notifySessions(
        notificationMessage('notifications/resources/updated', { uri: COUNTER_URI }),
        (session) => session.subscriptions.has(COUNTER_URI),
      );
      return textResult(`counter is now ${value}`);
    },
  },
];

function currentTools(ctx: RequestContext): readonly ToolDefinition[] {
  const conformance = ctx.fixtures.conformance
    ? [...CONFORMANCE_TOOLS, ...CONFORMANCE_MRTR_TOOLS, ...CONFORMANCE_TASK_TOOLS]
    : [];
  // The scenario that judges schema preservation reads one page of tools/list: its tool leads.
  const all = [
    ...(ctx.fixtures.conformance ? SCHEMA_TOOLS : []),
    ...TOOLS,
    ...ASKING_TOOLS,
    ASK_NAME_TOOL,
    ...TASK_TOOLS,
    ...conformance,
    ...(ctx.fixtures.bonusTool ? [BONUS_TOOL] : []),
    ...(declaresApps(ctx) ? APP_TOOLS : []),
  ];
  // Legacy sessions never see the tools that answer input_required: they could not use them.
  return ctx.modern === undefined ? all.filter((tool) => tool.era !== 'modern') : all;
}

function describe(tool: ToolDefinition, ctx: RequestContext): JsonObject {
  const descriptor: JsonObject = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
  };
  if (tool.outputSchema !== undefined) descriptor['outputSchema'] = tool.outputSchema;
  if (tool.annotations !== undefined) descriptor['annotations'] = tool.annotations;
  if (tool.meta !== undefined) descriptor['_meta'] = tool.meta;
  // Task support is news only to a client that has tasks: 2026-07-28, or a 2025-11-25 session.
  if (tool.task !== undefined && (ctx.modern !== undefined || sessionHasTasks(ctx))) {
    descriptor['execution'] = { taskSupport: tool.task.support };
  }
  return descriptor;
}

/** The tool a call names, if the caller's era offers it. */
export function findTool(name: unknown, ctx: RequestContext): ToolDefinition | undefined {
  return currentTools(ctx).find((candidate) => candidate.name === name);
}

/** `tools/list`: one page of tool descriptors. */
export function listTools(params: JsonObject, ctx: RequestContext): JsonObject {
  const tools = currentTools(ctx).map((tool) => describe(tool, ctx));
  return pageResult('tools', paginate('tools', tools, params, ctx.fixtures.pageSize));
}

/**
 * `tools/call`. An unknown tool is a protocol error (-32602); arguments that do not match the
 * input schema are a tool execution error, so a model could correct itself and retry.
 */
export async function callTool(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  const { name } = params;
  const args = params['arguments'] ?? {};
  if (typeof name !== 'string')
    throw new RpcError(ErrorCode.InvalidParams, 'name must be a string');
  if (!isObject(args)) throw new RpcError(ErrorCode.InvalidParams, 'arguments must be an object');
  const tool = currentTools(ctx).find((candidate) => candidate.name === name);
  if (tool === undefined) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const problem = checkArguments(tool.inputSchema, args);
  if (problem !== undefined) return errorResult(`Invalid arguments for ${name}: ${problem}`);
  return callMaybeAsTask(tool, args, params, ctx);
}
