/** @toolwire/ai-sdk: the tool set `mcpTools(client)` hands to the AI SDK, over a toolwire client. */
import { mcpTools } from '@toolwire/ai-sdk';
import { aiToolSession } from './ai-tools.ts';
import type { Driver } from './driver.ts';
import { benchClient } from './toolwire.ts';

const driver: Driver = {
  async connect(url) {
    const client = benchClient(url);
    return aiToolSession(await mcpTools(client), () => client.close());
  },
};
export default driver;
