/** @ai-sdk/mcp's tool set (`client.tools()`), the anchor of @toolwire/ai-sdk. */
import { createMCPClient } from '@ai-sdk/mcp';
import { aiToolSession } from './ai-tools.ts';
import type { Driver } from './driver.ts';

const driver: Driver = {
  async connect(url) {
    const client = await createMCPClient({ transport: { type: 'http', url } });
    return aiToolSession(await client.tools(), () => client.close());
  },
};
export default driver;
