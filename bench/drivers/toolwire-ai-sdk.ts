/** @toolwire/ai-sdk: the tool set `mcpTools(client)` hands to the AI SDK, over a toolwire client. */
import { mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient, memoryVerdictStore } from '@toolwire/client';
import { aiToolSession } from './ai-tools.ts';
import { CLIENT_INFO, type Driver } from './driver.ts';

const driver: Driver = {
  async connect(url) {
    const client = createMcpClient(url, {
      clientInfo: CLIENT_INFO,
      verdicts: memoryVerdictStore(),
      listen: false,
    });
    return aiToolSession(await mcpTools(client), () => client.close());
  },
};
export default driver;
