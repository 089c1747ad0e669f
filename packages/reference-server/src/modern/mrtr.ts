/**
 * Multi round-trip requests (2026-07-28): a handler that needs input answers `input_required`
 * with the requests it wants fulfilled and a `requestState`, and finishes when the client retries
 * with `inputResponses` and that state. The state travels through the client, so it is signed:
 * a tampered or foreign state is refused rather than trusted.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { ModernCode } from './envelope.ts';

/** How long a requestState stays valid: long enough for a person to answer, short for replays. */
const STATE_TTL_MS = 10 * 60 * 1000;

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** Signs `state` for the request it belongs to (`scope`, e.g. `tools/call:ask_name`). */
export function signState(ctx: RequestContext, scope: string, state: JsonObject): string {
  const payload = Buffer.from(
    JSON.stringify({ ...state, scope, exp: Date.now() + STATE_TTL_MS }),
  ).toString('base64url');
  return `${payload}.${mac(ctx.stateKey, payload)}`;
}

/**
 * The state of a retry: undefined when the client sent none (a first attempt), the signed
 * object when it verifies for this `scope`, and -32602 otherwise.
 */
export function verifiedState(ctx: RequestContext, scope: string): JsonObject | undefined {
  const token = ctx.modern?.requestState;
  if (token === undefined) return undefined;
  const refuse = (why: string) =>
    new RpcError(ErrorCode.InvalidParams, `Invalid params: requestState ${why}`);
  if (typeof token !== 'string') throw refuse('must be a string');
  const [payload = '', signature = ''] = token.split('.');
  const expected = Buffer.from(mac(ctx.stateKey, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw refuse('failed its integrity check');
  }
  const state: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (!isObject(state) || state['scope'] !== scope) throw refuse('belongs to another request');
  if (typeof state['exp'] !== 'number' || state['exp'] < Date.now()) throw refuse('has expired');
  return state;
}

/** Refuses with -32021 unless the client declared `capability` in this request's `_meta`. */
export function requireCapability(ctx: RequestContext, ...capabilities: string[]): void {
  const declared = ctx.modern?.clientCapabilities ?? {};
  const missing = capabilities.filter((capability) => !isObject(declared[capability]));
  if (missing.length === 0) return;
  throw new RpcError(
    ModernCode.MissingRequiredClientCapability,
    `Missing required client capability: ${missing.join(', ')}`,
    { requiredCapabilities: Object.fromEntries(missing.map((name) => [name, {}])) },
  );
}

/** Whether the client declared `capability` in this request's `_meta`. */
export function declares(ctx: RequestContext, capability: string): boolean {
  return isObject(ctx.modern?.clientCapabilities[capability]);
}

/**
 * The client's answer to the input request `key`, or undefined when it gave none (the caller
 * then asks again). A malformed `inputResponses` is a protocol error (-32602).
 */
export function inputResponse(ctx: RequestContext, key: string): JsonObject | undefined {
  const responses = ctx.modern?.inputResponses;
  if (responses === undefined) return undefined;
  if (!isObject(responses)) {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: inputResponses must be an object');
  }
  const response = responses[key];
  if (response === undefined) return undefined;
  if (!isObject(response)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: inputResponses.${key} must be an object`,
    );
  }
  return response;
}

/** An `input_required` result. */
export function inputRequired(inputRequests: JsonObject, requestState?: string): JsonObject {
  const result: JsonObject = { resultType: 'input_required', inputRequests };
  if (requestState !== undefined) result['requestState'] = requestState;
  return result;
}

/** A form-mode `elicitation/create` input request for one string (or boolean) field. */
export function elicitField(message: string, field: string, type = 'string'): JsonObject {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message,
      requestedSchema: {
        type: 'object',
        properties: { [field]: { type } },
        required: [field],
      },
    },
  };
}

/** A `sampling/createMessage` input request asking one question. */
export function sampleText(question: string, maxTokens: number): JsonObject {
  return {
    method: 'sampling/createMessage',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: question } }],
      maxTokens,
    },
  };
}

/** A `roots/list` input request. */
export const LIST_ROOTS: JsonObject = { method: 'roots/list', params: {} };

/** The accepted content of an elicitation answer, or undefined when the user did not accept. */
export function accepted(response: JsonObject): JsonObject | undefined {
  return response['action'] === 'accept' && isObject(response['content'])
    ? response['content']
    : undefined;
}
