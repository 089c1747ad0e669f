/**
 * The capabilities the client declares follow from what the application registered, and nothing
 * else: a server may only ask what a handler can answer.
 */
import type { JsonObject } from '../core/jsonrpc.ts';
import type { Handlers } from './types.ts';

export function clientCapabilities(handlers: Handlers): JsonObject {
  const capabilities: JsonObject = {};
  if (handlers.onElicitation && handlers.elicitationModes.length > 0) {
    capabilities['elicitation'] = Object.fromEntries(
      handlers.elicitationModes.map((mode) => [mode, {}]),
    );
  }
  if (handlers.onSampling) {
    capabilities['sampling'] = handlers.samplingTools ? { tools: {} } : {};
  }
  if (handlers.roots) capabilities['roots'] = { listChanged: true };
  return capabilities;
}
