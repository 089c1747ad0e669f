/**
 * What a user of the packed packages runs, in plain JavaScript on a plain Node (no TypeScript,
 * no `await using`: the lowest supported Node has neither): every package imported through its
 * `exports`, the Redis stores failing as documented when there is no Redis, then a tool with an
 * outputSchema called through the client and through both adapters against the reference server,
 * in both eras. Prints one JSON line for the test to read.
 */
import * as aiSdk from '@toolwire/ai-sdk';
import * as cli from '@toolwire/cli';
import * as client from '@toolwire/client';
import * as langchain from '@toolwire/langchain';
import * as langgraph from '@toolwire/langchain/langgraph';
import * as redis from '@toolwire/redis';
import * as reference from '@toolwire/reference-server';
import * as referenceGrpc from '@toolwire/reference-server/grpc';

const report = {
  node: process.version,
  exports: {
    client: Object.keys(client).length,
    aiSdk: Object.keys(aiSdk).length,
    langchain: Object.keys(langchain).length,
    langgraph: Object.keys(langgraph).length,
    reference: Object.keys(reference).length,
    referenceGrpc: Object.keys(referenceGrpc).length,
    cli: Object.keys(cli).length,
    redis: Object.keys(redis).length,
  },
  eras: {},
  grpc: {},
  redis: undefined,
};

// The Redis stores load node-redis from the install; with no Redis on port 1 they fail, typed.
const stores = redis.createRedisStores({
  url: 'redis://127.0.0.1:1',
  secrets: 'plaintext',
  timeoutMs: 100,
});
report.redis = await stores.verdicts.get('http://x/mcp').then(
  () => 'answered',
  (error) => error.code,
);
await stores.close();

const server = await reference.startReferenceServer();
try {
  for (const [era, url] of [
    ['legacy', server.urls.stateful],
    ['modern', server.urls.modern],
  ]) {
    const mcp = client.createMcpClient(url);
    try {
      const direct = await mcp.callTool('add', { a: 2, b: 3 });
      const broken = await mcp.callTool('bad_structure').catch((error) => error);
      const tools = await aiSdk.mcpTools(mcp);
      const viaAiSdk = await tools.add.execute(
        { a: 2, b: 40 },
        { toolCallId: 'packaging', messages: [] },
      );
      const structured = await langchain.mcpStructuredTools(mcp);
      const add = structured.find((tool) => tool.name === 'add');
      const viaLangchain = await add.invoke({ a: 1, b: 1 });
      report.eras[era] = {
        protocolVersion: mcp.protocolVersion,
        direct: direct.structuredContent,
        invalid: broken instanceof client.OutputValidationError ? broken.code : String(broken),
        aiSdk: viaAiSdk.structuredContent,
        langchain: viaLangchain,
      };
    } finally {
      await mcp.close();
    }
  }
} finally {
  await server.close();
}
// MCP-lite over gRPC: the client loads its gRPC stack (its own dependencies) for a grpc URL.
const grpcServer = await referenceGrpc.startGrpcReferenceServer();
try {
  const lite = client.createMcpClient(grpcServer.url);
  try {
    const echoed = await lite.callTool('echo', { text: 'over gRPC' });
    report.grpc = { dialect: lite.dialect, content: echoed.content };
  } finally {
    await lite.close();
  }
} finally {
  await grpcServer.close();
}
console.log(JSON.stringify(report));
