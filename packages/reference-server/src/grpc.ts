/**
 * `@toolwire/reference-server/grpc`: MCP-lite's gRPC binding over the same fixture tools as the
 * HTTP server's MCP-lite endpoint, with faults. An entry point of its own: it needs
 * `@connectrpc/connect`, `@connectrpc/connect-node` and `@bufbuild/protobuf`, which the HTTP
 * server does not.
 */
export { startGrpcReferenceServer } from './mcp-lite/grpc/server.ts';
export type {
  GrpcCall,
  GrpcFailure,
  GrpcFaults,
  GrpcReferenceServer,
  GrpcReferenceServerOptions,
  GrpcRpc,
  GrpcStatusName,
} from './mcp-lite/grpc/types.ts';
export type { LiteRedeem } from './types.ts';
