/** The JSON-RPC fields of a logged request body, typed loosely for assertions. */
export interface RpcBody {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

export function rpc(body: unknown): RpcBody {
  return (typeof body === 'object' && body !== null ? body : {}) as RpcBody;
}

/** The `_meta` of a logged request, or an empty object. */
export function metaOf(body: unknown): Record<string, unknown> {
  return (rpc(body).params?.['_meta'] ?? {}) as Record<string, unknown>;
}
