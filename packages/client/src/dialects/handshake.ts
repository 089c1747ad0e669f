/**
 * The `initialize` handshake's answer, for both legacy transports: checked, and turned into a
 * description of the server, or into the error that says why it cannot be used.
 */
import { MalformedMessageError, UnsupportedVersionError } from '../core/errors.ts';
import { isObject, type JsonObject, type JsonRpcResponse } from '../core/jsonrpc.ts';
import { fromJsonRpcError } from '../core/wire-codes.ts';
import type { ServerDescription } from './dialect.ts';

export function initializeParams(
  config: { capabilities: JsonObject; clientInfo: JsonObject },
  protocolVersion: string,
): JsonObject {
  return { protocolVersion, capabilities: config.capabilities, clientInfo: config.clientInfo };
}

/**
 * The revisions a refused `initialize` says the server speaks: `data.supported` (2025-11-25
 * lifecycle, and modern servers' -32022) or `data.supportedVersions` (some SDKs).
 */
export function supportedIn(response: JsonRpcResponse): string[] {
  if (!('error' in response) || !isObject(response.error.data)) return [];
  const data = response.error.data;
  const list = Array.isArray(data['supported']) ? data['supported'] : data['supportedVersions'];
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

/** Throws UnsupportedVersionError when the server chose a revision outside `supported`. */
export function describeServer(
  response: JsonRpcResponse,
  supported: readonly string[],
  url: string,
  status?: number,
): ServerDescription {
  const context = { url, method: 'initialize', status };
  if ('error' in response) {
    const theirs = supportedIn(response);
    if (theirs.length > 0) {
      throw new UnsupportedVersionError(theirs.join(', '), supported, {
        ...context,
        cause: fromJsonRpcError(response.error, context),
      });
    }
    throw fromJsonRpcError(response.error, context);
  }
  const result = response.result;
  const version = result['protocolVersion'];
  if (
    typeof version !== 'string' ||
    !isObject(result['serverInfo']) ||
    !isObject(result['capabilities'])
  ) {
    throw new MalformedMessageError(
      'initialize result lacks protocolVersion, serverInfo or capabilities',
      {
        ...context,
        bodyExcerpt: JSON.stringify(result).slice(0, 200),
      },
    );
  }
  if (!supported.includes(version)) throw new UnsupportedVersionError(version, supported, context);
  return {
    protocolVersion: version,
    serverInfo: result['serverInfo'] as ServerDescription['serverInfo'],
    capabilities: result['capabilities'],
    instructions: typeof result['instructions'] === 'string' ? result['instructions'] : undefined,
  };
}
