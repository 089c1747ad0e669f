/**
 * What a user of the packed packages runs, in plain JavaScript on a plain Node (no TypeScript,
 * no `await using`: the lowest supported Node has neither): every package imported through its
 * `exports`, then a tool with an outputSchema called through the client and through both
 * adapters against the reference server, in both eras. Prints one JSON line for the test to read.
 */
import * as aiSdk from '@toolwire/ai-sdk';
import * as cli from '@toolwire/cli';
import * as client from '@toolwire/client';
import * as langchain from '@toolwire/langchain';
import * as langgraph from '@toolwire/langchain/langgraph';
import * as reference from '@toolwire/reference-server';

const report = {
  node: process.version,
  exports: {
    client: Object.keys(client).length,
    aiSdk: Object.keys(aiSdk).length,
    langchain: Object.keys(langchain).length,
    langgraph: Object.keys(langgraph).length,
    reference: Object.keys(reference).length,
    cli: Object.keys(cli).length,
  },
  eras: {},
};

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
console.log(JSON.stringify(report));
