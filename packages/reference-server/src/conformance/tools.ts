/**
 * The tools the MCP conformance suite's server scenarios call by name (tools-call-*). Names,
 * arguments and texts are the ones each scenario's "Server Implementation Requirements" give;
 * the behaviour is the specification's (content types, tool errors, progress, logging).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { errorResult, text, textResult } from '../content.ts';
import type { RequestContext } from '../context.ts';
import { type JsonObject, notificationMessage } from '../jsonrpc.ts';
import { PNG_BASE64, WAV_BASE64 } from '../media.ts';
import type { ToolDefinition } from '../tools.ts';
import { CLIENT_REQUEST_TOOLS } from './client-request-tools.ts';

/** The pause between the steps the logging and progress scenarios expect. */
const STEP_MS = 50;

const NO_ARGUMENTS: JsonObject = { type: 'object', properties: {} };
const READ_ONLY: JsonObject = { readOnlyHint: true, idempotentHint: true };

/** Sends an info message about this call, on its own stream, when the session's level lets it. */
function logInfo(ctx: RequestContext, message: string): void {
  if (!ctx.logAllows('info')) return;
  ctx.sendRelated(
    notificationMessage('notifications/message', {
      level: 'info',
      logger: 'conformance',
      data: message,
    }),
  );
}

function reportProgress(ctx: RequestContext, progress: number): void {
  if (ctx.progressToken === undefined) return;
  ctx.sendRelated(
    notificationMessage('notifications/progress', {
      progressToken: ctx.progressToken,
      progress,
      total: 100,
    }),
  );
}

const CONTENT_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'test_simple_text',
    description: 'Returns one text block.',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    run: () => textResult('This is a simple text response for testing.'),
  },
  {
    name: 'test_image_content',
    description: 'Returns one image block (a 1x1 PNG).',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    run: () => ({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] }),
  },
  {
    name: 'test_audio_content',
    description: 'Returns one audio block (a short silent WAV).',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    run: () => ({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] }),
  },
  {
    name: 'test_embedded_resource',
    description: 'Returns one embedded text resource.',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    run: () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  },
  {
    name: 'test_multiple_content_types',
    description: 'Returns a text, an image and an embedded resource block together.',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    run: () => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  },
  {
    name: 'test_error_handling',
    description: 'Always fails with a tool execution error (isError: true).',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    run: () => errorResult('This tool intentionally returns an error for testing'),
  },
];

const NOTIFYING_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages, 50 ms apart, while it runs.',
    inputSchema: NO_ARGUMENTS,
    run: async (_args, ctx) => {
      logInfo(ctx, 'Tool execution started');
      await sleep(STEP_MS, undefined, { signal: ctx.signal });
      logInfo(ctx, 'Tool processing data');
      await sleep(STEP_MS, undefined, { signal: ctx.signal });
      logInfo(ctx, 'Tool execution completed');
      return textResult('Tool with logging executed successfully');
    },
  },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100, 50 ms apart, when asked for progress.',
    inputSchema: NO_ARGUMENTS,
    run: async (_args, ctx) => {
      reportProgress(ctx, 0);
      await sleep(STEP_MS, undefined, { signal: ctx.signal });
      reportProgress(ctx, 50);
      await sleep(STEP_MS, undefined, { signal: ctx.signal });
      reportProgress(ctx, 100);
      return textResult('Tool with progress executed successfully');
    },
  },
];

/** Every conformance tool, in the order tools/list shows them after the regular fixtures. */
export const CONFORMANCE_TOOLS: readonly ToolDefinition[] = [
  ...CONTENT_TOOLS,
  ...NOTIFYING_TOOLS,
  ...CLIENT_REQUEST_TOOLS,
];
