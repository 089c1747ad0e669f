/**
 * What both Streamable HTTP channels do for a request that revalidates (core/revalidation.ts):
 * `If-None-Match` out, the `ETag` read off a 2xx, and a 304 turned into an empty response the
 * caller knows to ignore, since a 304 has no body to read a JSON-RPC answer from.
 */
import type { JsonRpcRequest, JsonRpcResponse } from '../../core/jsonrpc.ts';
import type { Revalidation } from '../../core/revalidation.ts';
import { discard, type HttpResponse } from '../transport/http.ts';

/** The envelope with `If-None-Match` added, when the request revalidates a kept listing. */
export function withIfNoneMatch(
  envelope: Record<string, string> | undefined,
  revalidation: Revalidation | undefined,
): Record<string, string> | undefined {
  const etag = revalidation?.ifNoneMatch;
  return etag === undefined ? envelope : { ...envelope, 'if-none-match': etag };
}

/**
 * The stand-in response for a 304 to a request that asked with `If-None-Match`; undefined for
 * any other answer, whose ETag (on a 2xx) is noted for the next revalidation.
 */
export function notModified(
  response: HttpResponse,
  request: JsonRpcRequest,
  revalidation: Revalidation | undefined,
): JsonRpcResponse | undefined {
  if (!revalidation) return undefined;
  if (response.status === 304 && revalidation.ifNoneMatch !== undefined) {
    discard(response);
    revalidation.notModified = true;
    return { jsonrpc: '2.0', id: request.id, result: {} };
  }
  if (response.status >= 200 && response.status < 300) revalidation.etag = response.header('etag');
  return undefined;
}
