/**
 * @langchain/mcp-adapters' tools (MultiServerMCPClient over Streamable HTTP), the anchor of
 * @toolwire/langchain; underneath, the official 1.x client.
 */
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import type { Driver } from './driver.ts';
import { langchainToolSession } from './langchain-tools.ts';

const driver: Driver = {
  async connect(url) {
    const client = new MultiServerMCPClient({
      mcpServers: { bench: { transport: 'http', url } },
      useStandardContentBlocks: true,
    });
    return langchainToolSession(await client.getTools(), () => client.close());
  },
};
export default driver;
