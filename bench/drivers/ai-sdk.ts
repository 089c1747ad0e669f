/** @ai-sdk/mcp's own client (createMCPClient over its HTTP transport), with its defaults. */
import { createMCPClient } from '@ai-sdk/mcp';
import type { Driver } from './driver.ts';

const driver: Driver = {
  async connect(url) {
    const client = await createMCPClient({ transport: { type: 'http', url } });
    return {
      call: (name, args) => client.callTool(args ? { name, arguments: args } : { name }),
      close: () => client.close(),
    };
  },
};
export default driver;
