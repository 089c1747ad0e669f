import type { ServerResponse } from 'node:http';
import {
  createContext,
  type MessageSink,
  type RequestContext,
  type ServerCore,
} from './context.ts';
import { sendEmpty, sendJson } from './http-util.ts';
import {
  ErrorCode,
  errorMessage,
  type JsonObject,
  RpcError,
  type RpcRequest,
  resultMessage,
} from './jsonrpc.ts';
import { dispatch } from './protocol.ts';
import type { EndpointKind, Session } from './session.ts';
import { SseStream } from './sse-stream.ts';

/** From this revision on, POST streams start with a priming event. */
const PRIMING_SINCE = '2025-11-25';

/** The requests of one POST and how to answer them. */
export interface Answer {
  readonly kind: EndpointKind;
  readonly session: Session | undefined;
  readonly batch: boolean;
  readonly requests: readonly RpcRequest[];
  readonly headers: Record<string, string>;
  readonly run: (request: RpcRequest, ctx: RequestContext) => Promise<unknown>;
}

/** Whether streams of a session at this version start with a priming event. */
export function primes(version: string | undefined): boolean {
  return version !== undefined && version >= PRIMING_SINCE;
}

/** Runs a request through the method table, refusing all but ping until the session is initialized. */
export function defaultRun(session: Session | undefined): Answer['run'] {
  return async (request, ctx) => {
    if (session !== undefined && !session.initialized && request.method !== 'ping') {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        'Session not initialized: send notifications/initialized first (only ping is allowed before)',
      );
    }
    return dispatch(request, ctx);
  };
}

/** Runs one request; undefined means it was cancelled and must not be answered. */
export async function execute(
  core: ServerCore,
  answer: Pick<Answer, 'session' | 'run'>,
  request: RpcRequest,
  stream: MessageSink | undefined,
): Promise<JsonObject | undefined> {
  const registry = answer.session?.inFlight ?? core.statelessInFlight;
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, core.closing]);
  registry.add(request.id, controller);
  try {
    const ctx = createContext(core, request, answer.session, stream, signal);
    const result = await answer.run(request, ctx);
    return signal.aborted ? undefined : resultMessage(request.id, result);
  } catch (error) {
    if (signal.aborted) return undefined;
    if (error instanceof RpcError) {
      return errorMessage(request.id, error.code, error.message, error.data);
    }
    return errorMessage(request.id, ErrorCode.InternalError, `Internal error: ${String(error)}`);
  } finally {
    registry.remove(request.id, controller);
  }
}

/**
 * Answers the requests of one POST: as an SSE stream on the SSE endpoint (each response an event,
 * the stream finished after the last one), else as one JSON object or a batch array.
 */
export async function answerRequests(
  core: ServerCore,
  res: ServerResponse,
  answer: Answer,
): Promise<void> {
  if (answer.kind === 'sse') {
    // Only a session's streams can be resumed, so only they are worth a stream fault.
    const stream = answer.session?.openPostStream() ?? new SseStream('0');
    const fault = answer.session === undefined ? {} : core.faults.takeStreamFault();
    stream.attach(res, {
      headers: answer.headers,
      prime: primes(answer.session?.version),
      ...fault,
    });
    await Promise.all(
      answer.requests.map(async (request) => {
        const response = await execute(core, answer, request, stream);
        if (response !== undefined) stream.send(response, true);
      }),
    );
    stream.finish();
    return;
  }
  const responses = await Promise.all(
    answer.requests.map((request) => execute(core, answer, request, undefined)),
  );
  const answered = responses.filter((response) => response !== undefined);
  if (res.writableEnded || res.destroyed) return;
  // Every request was cancelled: no JSON-RPC response may be sent, so the exchange ends empty.
  if (answered.length === 0) sendEmpty(res, 204, answer.headers);
  else sendJson(res, 200, answer.batch ? answered : answered[0], answer.headers);
}
