/**
 * MCP-lite's gRPC binding (seed 000 §5) on a port of its own: the `MCPLite` service over HTTP/2,
 * in cleartext (grpc://) or with TLS (grpcs://), through Connect's Node adapter with only the
 * gRPC protocol on. Its own entry point (`@toolwire/reference-server/grpc`), so that the HTTP
 * server stays free of dependencies.
 */
import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type ServerHttp2Session,
} from 'node:http2';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { urlHost } from '../../http-util.ts';
import { PromiseStore } from '../promises.ts';
import { GrpcFaultController } from './faults.ts';
import { MCPLite } from './gen/mcplite/mcplite_pb.ts';
import { mcpLiteService } from './service.ts';
import type { GrpcCall, GrpcReferenceServer, GrpcReferenceServerOptions } from './types.ts';

/** Starts the gRPC binding over the MCP-lite fixture tools. */
export async function startGrpcReferenceServer(
  options: GrpcReferenceServerOptions = {},
): Promise<GrpcReferenceServer> {
  const { port = 0, host = '127.0.0.1', tls, streaming = true } = options;
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  const faults = new GrpcFaultController();
  const promises = new PromiseStore();
  const calls: GrpcCall[] = [];
  const shutdown = new AbortController();
  const handler = connectNodeAdapter({
    grpc: true,
    grpcWeb: false,
    connect: false,
    shutdownSignal: shutdown.signal,
    routes: (router) => {
      router.service(MCPLite, mcpLiteService({ faults, promises, calls, streaming }));
    },
  });
  const server: Http2Server | Http2SecureServer = tls
    ? createSecureServer({ key: tls.key, cert: tls.cert }, handler)
    : createServer(handler);
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      shutdown.abort();
      promises.clear();
      // The callback runs once the listener and every connection are gone.
      server.close(() => resolve());
      for (const session of sessions) session.destroy();
    });
    return closed;
  };

  return {
    url: `${tls ? 'grpcs' : 'grpc'}://${urlHost(host)}:${address.port}`,
    faults,
    calls,
    liteRedeems: promises.redeems,
    sessions: () => sessions.size,
    close,
    [Symbol.asyncDispose]: close,
  };
}
