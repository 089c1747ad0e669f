import { ErrorCode, isObject, type JsonObject, RpcError } from './jsonrpc.ts';

/** One page of a list, plus the cursor for the next one when more items remain. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | undefined;
}

/**
 * Cursors are opaque to clients; inside they name the list they belong to, so a cursor from
 * tools/list handed to prompts/list is rejected instead of silently skipping items.
 */
function encodeCursor(list: string, offset: number): string {
  return Buffer.from(JSON.stringify({ list, offset })).toString('base64url');
}

function decodeCursor(list: string, cursor: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !isObject(decoded) ||
    decoded['list'] !== list ||
    typeof decoded['offset'] !== 'number' ||
    !Number.isSafeInteger(decoded['offset']) ||
    decoded['offset'] < 0
  ) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid cursor for ${list}`);
  }
  return decoded['offset'];
}

/** Returns the page selected by `params.cursor` (the first page when it is absent). */
export function paginate<T>(
  list: string,
  items: readonly T[],
  params: JsonObject,
  pageSize: number,
): Page<T> {
  const { cursor } = params;
  if (cursor !== undefined && typeof cursor !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, 'cursor must be a string');
  }
  const offset = cursor === undefined ? 0 : decodeCursor(list, cursor);
  const end = offset + pageSize;
  return {
    items: items.slice(offset, end),
    nextCursor: end < items.length ? encodeCursor(list, end) : undefined,
  };
}

/** Builds a list result `{ [key]: items, nextCursor? }`. */
export function pageResult<T>(key: string, page: Page<T>): JsonObject {
  const result: JsonObject = { [key]: page.items };
  if (page.nextCursor !== undefined) result['nextCursor'] = page.nextCursor;
  return result;
}
