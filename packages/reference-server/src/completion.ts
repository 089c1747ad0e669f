import { ErrorCode, isObject, type JsonObject, RpcError } from './jsonrpc.ts';
import { findPrompt, GREET_STYLES } from './prompts.ts';
import { ITEM_TEMPLATE, LISTED_ITEMS } from './resources.ts';
import type { FixtureState } from './state.ts';

/** The spec caps a completion answer at 100 values. */
const MAX_VALUES = 100;

function candidates(
  ref: JsonObject,
  argumentName: string,
  fixtures: FixtureState,
): readonly string[] {
  if (ref['type'] === 'ref/prompt') {
    const prompt = findPrompt(ref['name'], fixtures);
    return prompt.name === 'greet' && argumentName === 'style' ? GREET_STYLES : [];
  }
  if (ref['type'] === 'ref/resource') {
    if (ref['uri'] !== ITEM_TEMPLATE) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown resource template: ${String(ref['uri'])}`,
      );
    }
    return argumentName === 'id'
      ? Array.from({ length: LISTED_ITEMS }, (_, i) => String(i + 1))
      : [];
  }
  throw new RpcError(ErrorCode.InvalidParams, 'ref.type must be ref/prompt or ref/resource');
}

/** `completion/complete`: the known values that start with what the user typed so far. */
export function complete(params: JsonObject, fixtures: FixtureState): JsonObject {
  const { ref, argument } = params;
  if (!isObject(ref)) throw new RpcError(ErrorCode.InvalidParams, 'ref must be an object');
  if (
    !isObject(argument) ||
    typeof argument['name'] !== 'string' ||
    typeof argument['value'] !== 'string'
  ) {
    throw new RpcError(ErrorCode.InvalidParams, 'argument must have string name and value');
  }
  const prefix = argument['value'];
  const values = candidates(ref, argument['name'], fixtures).filter((value) =>
    value.startsWith(prefix),
  );
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total: values.length,
      hasMore: values.length > MAX_VALUES,
    },
  };
}
