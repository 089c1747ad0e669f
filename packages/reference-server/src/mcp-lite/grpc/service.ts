/**
 * The `MCPLite` service over the same tools as the HTTP endpoint (`../tools.ts`): `GetTools`
 * lists them, `CallTool` answers in one message, `CallToolStream` sends partials, heartbeats and
 * a final message with `meta`. Each RPC is recorded with its metadata, its deadline and how it
 * ended; faults apply before the tool runs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { MessageInitShape, JsonObject as StructJson } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from '@connectrpc/connect';
import { isObject, type JsonObject, RpcError } from '../../jsonrpc.ts';
import type { PromiseStore } from '../promises.ts';
import { assemble, callTool, type Reply, type StreamEvent, toolDefinitions } from '../tools.ts';
import type { GrpcFaultController } from './faults.ts';
import type { MCPLite, ToolRequest, ToolResponseSchema } from './gen/mcplite/mcplite_pb.ts';
import type { GrpcCall, GrpcRpc } from './types.ts';
import { faultStatus, statusName, toResponse, toStatus, toTool } from './wire.ts';

type ResponseInit = MessageInitShape<typeof ToolResponseSchema>;

export interface ServiceState {
  faults: GrpcFaultController;
  promises: PromiseStore;
  calls: GrpcCall[];
  /** Without it, CallToolStream is left out and answered UNIMPLEMENTED. */
  streaming: boolean;
}

export function mcpLiteService(state: ServiceState): Partial<ServiceImpl<typeof MCPLite>> {
  const service: Partial<ServiceImpl<typeof MCPLite>> = {
    async getTools(_request, context) {
      return recorded(state, 'GetTools', undefined, context, async () => ({
        tools: toolDefinitions().map(toTool),
      }));
    },
    async callTool(request, context) {
      return recorded(state, 'CallTool', request, context, async () => {
        const reply = run(request, state.promises);
        const events = reply.kind === 'stream' ? reply.events : [];
        const failed = events.find((event) => event.event === 'error');
        if (failed) throw toStatus(streamError(failed));
        const result = reply.kind === 'result' ? reply.result : assemble(events);
        return toResponse(result, state.faults.takeUnknownType());
      });
    },
  };
  service.callToolStream = (request, context) =>
    state.streaming ? streamed(state, request, context) : unimplemented(state, request, context);
  return service;
}

async function* streamed(
  state: ServiceState,
  request: ToolRequest,
  context: HandlerContext,
): AsyncGenerator<ResponseInit> {
  const call = begin(state, 'CallToolStream', request, context);
  try {
    await gate(state, 'CallToolStream', context);
    const reply = run(request, state.promises);
    const events: StreamEvent[] =
      reply.kind === 'result' ? [{ event: 'done', data: reply.result }] : reply.events;
    const cut = state.faults.takeCut();
    for (const event of events) {
      switch (event.event) {
        case 'message':
          yield { result: event.data as StructJson };
          break;
        case 'heartbeat':
          await sleep(event.delayMs, undefined, { signal: context.signal });
          if (!event.quiet) yield { heartbeat: true };
          break;
        case 'error':
          throw toStatus(streamError(event));
        case 'done': {
          // The fault: the stream ends as if all was said, without its final message.
          if (cut) break;
          // The final message carries the complete result, as the seed's example does.
          const result = reply.kind === 'result' ? reply.result : assemble(events);
          yield toResponse(result, state.faults.takeUnknownType());
          break;
        }
      }
    }
    call.status = 'OK';
  } catch (error) {
    call.status = endedWith(error, context);
    throw error;
  }
}

/** What a server without the streaming RPC answers, recorded (Connect's own reply would not be). */
async function* unimplemented(
  state: ServiceState,
  request: ToolRequest,
  context: HandlerContext,
): AsyncGenerator<ResponseInit> {
  await recorded(state, 'CallToolStream', request, context, async () => {
    throw new ConnectError('CallToolStream is not implemented', Code.Unimplemented);
  });
}

/** Runs one unary RPC, recording it. */
async function recorded<T>(
  state: ServiceState,
  rpc: GrpcRpc,
  request: ToolRequest | undefined,
  context: HandlerContext,
  answer: () => Promise<T>,
): Promise<T> {
  const call = begin(state, rpc, request, context);
  try {
    await gate(state, rpc, context);
    const result = await answer();
    call.status = 'OK';
    return result;
  } catch (error) {
    call.status = endedWith(error, context);
    throw error;
  }
}

function begin(
  state: ServiceState,
  rpc: GrpcRpc,
  request: ToolRequest | undefined,
  context: HandlerContext,
): GrpcCall {
  const headers: Record<string, string> = {};
  context.requestHeader.forEach((value, name) => {
    headers[name] = value;
  });
  const call: GrpcCall = { rpc, headers, timeoutMs: context.timeoutMs(), status: undefined };
  if (request) {
    call.tool = request.name;
    call.arguments = (request.arguments ?? {}) as JsonObject;
    if (request.meta) call.meta = request.meta as JsonObject;
  }
  state.calls.push(call);
  return call;
}

/** Faults that apply before the tool runs: a canned status, then the delay. */
async function gate(state: ServiceState, rpc: GrpcRpc, context: HandlerContext): Promise<void> {
  const failure = state.faults.takeFailure(rpc);
  if (failure) throw faultStatus(failure);
  const { delayMs } = state.faults;
  if (delayMs > 0) await sleep(delayMs, undefined, { signal: context.signal });
}

function run(request: ToolRequest, promises: PromiseStore): Reply {
  try {
    return callTool({ name: request.name, arguments: request.arguments ?? {} }, promises);
  } catch (error) {
    if (error instanceof RpcError) throw toStatus(error);
    throw error;
  }
}

function streamError(event: StreamEvent): RpcError {
  const { code, message, data } = event.data;
  return new RpcError(Number(code), String(message), isObject(data) ? data : undefined);
}

/** How a call ended when it threw: the client's cancel or deadline, or the status it was given. */
function endedWith(error: unknown, context: HandlerContext): string {
  const cause = context.signal.aborted ? context.signal.reason : error;
  return statusName(cause instanceof ConnectError ? cause.code : Code.Internal);
}
