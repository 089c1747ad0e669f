/** @toolwire/langchain: the StructuredTools `mcpStructuredTools(client)` makes, over toolwire. */
import { createMcpClient, memoryVerdictStore } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { CLIENT_INFO, type Driver } from './driver.ts';
import { langchainToolSession } from './langchain-tools.ts';

const driver: Driver = {
  async connect(url) {
    const client = createMcpClient(url, {
      clientInfo: CLIENT_INFO,
      verdicts: memoryVerdictStore(),
      listen: false,
    });
    return langchainToolSession(await mcpStructuredTools(client), () => client.close());
  },
};
export default driver;
