import type { Deadline } from '../../core/deadline.ts';
import { ContentTypeError, MalformedMessageError } from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { Tool } from '../../core/types.ts';
import { excerpt, readText, send, statusError } from '../../wire/transport/http.ts';
import { withRetry } from '../../wire/transport/retry.ts';
import { envelopeError, parseJson } from './envelope.ts';
import { type HttpConfig, webtoolUrl } from './http.ts';

export interface WebtoolAction {
  name: string;
  description?: string;
  requestSchema?: JsonObject;
  responseSchema?: JsonObject;
}

export interface WebtoolMetadata {
  name: string;
  description?: string;
  version?: string;
  actions: WebtoolAction[];
  configSchema?: JsonObject;
  defaultConfig?: JsonObject;
}

/** GETs the metadata of `version` (the latest when undefined). */
export function fetchMetadata(
  config: HttpConfig,
  version: string | undefined,
  deadline: Deadline,
): Promise<WebtoolMetadata> {
  const url = webtoolUrl(config.url, version);
  const where = { url, method: 'GET' };
  return withRetry(
    async () => {
      const response = await send(config.dispatcher, {
        url,
        method: 'GET',
        headers: { ...config.headers, accept: 'application/json' },
        signal: deadline.signal,
      });
      const text = await readText(response, config.maxResponseBytes, url, deadline.signal);
      const value = parseJson(text);
      const refusal = envelopeError(value, { ...where, status: response.status });
      if (refusal) throw refusal;
      if (response.status < 200 || response.status >= 300) throw statusError(response, text, where);
      if (response.mediaType !== 'application/json' || value === undefined) {
        throw new ContentTypeError(response.mediaType, { ...where, bodyExcerpt: excerpt(text) });
      }
      return metadataOf(value.json, { ...where, bodyExcerpt: excerpt(text) });
    },
    config.retry,
    { idempotent: true, deadline },
  );
}

/** Checks what the client relies on: a list of named actions. */
export function metadataOf(
  value: unknown,
  where: { url: string; bodyExcerpt?: string },
): WebtoolMetadata {
  const actions = isObject(value) ? value['actions'] : undefined;
  if (
    !isObject(value) ||
    !Array.isArray(actions) ||
    !actions.every((action) => isObject(action) && typeof action['name'] === 'string')
  ) {
    throw new MalformedMessageError('webtool metadata without a list of named actions', where);
  }
  return value as unknown as WebtoolMetadata;
}

export function toolsOf(metadata: WebtoolMetadata): Tool[] {
  return metadata.actions.map((action) => {
    const tool: Tool = {
      name: action.name,
      inputSchema: isObject(action.requestSchema) ? action.requestSchema : { type: 'object' },
    };
    const description = action.description ?? metadata.description;
    if (description !== undefined) tool.description = description;
    if (isObject(action.responseSchema)) tool.outputSchema = action.responseSchema;
    return tool;
  });
}
