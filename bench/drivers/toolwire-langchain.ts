/** @toolwire/langchain: the StructuredTools `mcpStructuredTools(client)` makes, over toolwire. */
import { mcpStructuredTools } from '@toolwire/langchain';
import type { Driver } from './driver.ts';
import { langchainToolSession } from './langchain-tools.ts';
import { benchClient } from './toolwire.ts';

const driver: Driver = {
  async connect(url) {
    const client = benchClient(url);
    return langchainToolSession(await mcpStructuredTools(client), () => client.close());
  },
};
export default driver;
