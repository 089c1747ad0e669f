/**
 * MCP-lite's gRPC binding for the bench, as `server.ts` is for HTTP: bare `node:http2` (cleartext,
 * 127.0.0.1 only) with precomputed answers, so its cost per call is decoding the request and one
 * write, the same for every client. `GetTools` lists `echo`; `CallTool` of `echo` answers a
 * constant. Messages are the client's generated ones (`mcplite.proto`), so they cannot drift.
 *
 * Started by `server.ts`, in its process: the server must not share the client's process.
 */
import { createServer, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  ResponseType,
  ToolRequestSchema,
  ToolResponseSchema,
  ToolsListSchema,
} from '../packages/client/src/dialects/mcp-lite/grpc/gen/mcplite/mcplite_pb.ts';
import { ECHO_TEXT, TCP_CONNECTION, TOOLS } from './protocol.ts';

const SERVICE = '/mcplite.MCPLite/';
const CONTENT_TYPE = 'application/grpc+proto';
const NOT_FOUND = 5;
const UNIMPLEMENTED = 12;
const INTERNAL = 13;

/** A length-prefixed message: not compressed, its length as a 32-bit big-endian number. */
function enveloped(message: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

const TOOL_LIST = enveloped(
  toBinary(
    ToolsListSchema,
    create(ToolsListSchema, {
      tools: [{ name: TOOLS.json, description: TOOLS.json, inputSchema: { type: 'object' } }],
    }),
  ),
);
// `meta` present (and empty: ANSWER, no timestamp) marks a unary answer, as over HTTP its `_meta`.
const ECHO_ANSWER = enveloped(
  toBinary(
    ToolResponseSchema,
    create(ToolResponseSchema, {
      result: { content: [{ type: 'text', text: ECHO_TEXT }] },
      meta: { responseType: ResponseType.ANSWER },
    }),
  ),
);

function answer(stream: ServerHttp2Stream, body: Buffer): undefined {
  stream.respond({ ':status': 200, 'content-type': CONTENT_TYPE }, { waitForTrailers: true });
  stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  stream.end(body);
}

/** A status without a message: headers and trailers in one frame ("trailers-only"). */
function fail(stream: ServerHttp2Stream, status: number, message: string): undefined {
  stream.respond(
    {
      ':status': 200,
      'content-type': CONTENT_TYPE,
      'grpc-status': String(status),
      'grpc-message': encodeURIComponent(message),
    },
    { endStream: true },
  );
}

function callTool(stream: ServerHttp2Stream, body: Buffer): undefined {
  const length = body.length >= 5 ? body.readUInt32BE(1) : -1;
  if (length < 0 || body.length !== 5 + length || body[0] !== 0) {
    return fail(stream, INTERNAL, 'expected one uncompressed message');
  }
  const request = fromBinary(ToolRequestSchema, body.subarray(5));
  if (request.name !== TOOLS.json) return fail(stream, NOT_FOUND, `unknown tool ${request.name}`);
  return answer(stream, ECHO_ANSWER);
}

export interface GrpcServer {
  port: number;
  close(): void;
}

/** Listens on a port of its own; `count` is the HTTP server's request counter, shared. */
export async function startGrpcServer(count: (key: string) => void): Promise<GrpcServer> {
  const server = createServer();
  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  server.on('connection', () => count(TCP_CONNECTION));
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path'] ?? '');
    const rpc = path.startsWith(SERVICE) ? path.slice(SERVICE.length) : path;
    count(`gRPC ${rpc}`);
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      if (rpc === 'CallTool') return callTool(stream, Buffer.concat(chunks));
      if (rpc === 'GetTools') return answer(stream, TOOL_LIST);
      fail(stream, UNIMPLEMENTED, `${path} is not served`);
    });
    // A client that cancels (RST_STREAM) must not take the server down.
    stream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the gRPC server has no port');
  return {
    port: address.port,
    close() {
      for (const session of sessions) session.destroy();
      server.close();
    },
  };
}
