import type { ReceivedRequest, ReferenceServer } from '@toolwire/reference-server';

/** The POSTs whose JSON-RPC method is `method`, as the reference server received them. */
export function posts(server: ReferenceServer, method: string): ReceivedRequest[] {
  return server.log.filter(
    (entry) =>
      entry.httpMethod === 'POST' &&
      typeof entry.body === 'object' &&
      entry.body !== null &&
      (entry.body as { method?: unknown }).method === method,
  );
}

export { rpc as rpcBody } from '../helpers/rpc.ts';

export function requestsOf(server: ReferenceServer, httpMethod: string): ReceivedRequest[] {
  return server.log.filter((entry) => entry.httpMethod === httpMethod);
}

export { waitFor } from '../helpers/wait-for.ts';
