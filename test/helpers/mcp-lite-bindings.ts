/**
 * The reference server's MCP-lite, over both bindings: the HTTP endpoint and the gRPC service,
 * the same tools behind each.
 */
import { startReferenceServer } from '@toolwire/reference-server';
import { startGrpcReferenceServer } from '@toolwire/reference-server/grpc';

export async function startBothBindings() {
  const http = await startReferenceServer();
  const grpc = await startGrpcReferenceServer();
  return {
    http,
    grpc,
    urls: { http: http.urls.mcpLite, grpc: grpc.url },
    async [Symbol.asyncDispose]() {
      await Promise.all([http.close(), grpc.close()]);
    },
  };
}
