/**
 * A webtool's `config`: supplied by the application, never by the model. What the application
 * gives is merged over the webtool's `defaultConfig` and checked against its `configSchema`
 * before anything is sent, so a wrong key fails at connect, not at a model's first call.
 */
import { type ErrorContext, MalformedMessageError, WebtoolError } from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import { schemaProblems } from '../../core/schema.ts';
import type { WebtoolMetadata } from './metadata.ts';

/** The config to send, or undefined when neither side has any. */
export function configFor(
  metadata: WebtoolMetadata,
  given: JsonObject | undefined,
  where: ErrorContext,
): JsonObject | undefined {
  const defaults = isObject(metadata.defaultConfig) ? metadata.defaultConfig : undefined;
  if (!defaults && !given) {
    check(metadata, {}, where);
    return undefined;
  }
  const config = merge(defaults ?? {}, given ?? {});
  check(metadata, config, where);
  return config;
}

function check(metadata: WebtoolMetadata, config: JsonObject, where: ErrorContext): void {
  if (!isObject(metadata.configSchema)) return;
  let problems: string[];
  try {
    problems = schemaProblems(metadata.configSchema, config);
  } catch (error) {
    throw new MalformedMessageError(`configSchema cannot be used: ${(error as Error).message}`, {
      ...where,
      cause: error,
    });
  }
  if (problems.length > 0) {
    throw new WebtoolError(
      'CONFIG_ERROR',
      `config does not match configSchema (${problems.join('; ')})`,
      where,
    );
  }
}

/** `over` merged onto `base`, nested objects merged key by key. */
function merge(base: JsonObject, over: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = merged[key];
    merged[key] = isObject(under) && isObject(value) ? merge(under, value) : value;
  }
  return merged;
}
