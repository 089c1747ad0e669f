/**
 * The gRPC floor: the Connect client toolwire runs underneath (`@connectrpc/connect-node`, one
 * HTTP/2 session) calling the same RPCs with the same generated stubs, and nothing on top: no
 * deadline, no metadata, no status mapping, the result read as the decoded message holds it.
 * Its connect is the `GetTools` toolwire's connect sends.
 */
import type { JsonObject } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { MCPLite } from '../../packages/client/src/dialects/mcp-lite/grpc/gen/mcplite/mcplite_pb.ts';
import type { Driver } from './driver.ts';

const driver: Driver = {
  async connect(url) {
    const baseUrl = url.replace(/^grpc:/, 'http:');
    const sessions = new Http2SessionManager(baseUrl);
    const client = createClient(
      MCPLite,
      createGrpcTransport({ baseUrl, sessionManager: sessions }),
    );
    await client.getTools({});
    return {
      // The bench's arguments are JSON: a Struct takes them as they are.
      call: async (name, args = {}) =>
        (await client.callTool({ name, arguments: args as JsonObject })).result,
      close: async () => sessions.abort(),
    };
  },
};
export default driver;
