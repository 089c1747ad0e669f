/** The official 1.x client, as its README shows it: Client + StreamableHTTPClientTransport. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLIENT_INFO, type Driver } from './driver.ts';

const driver: Driver = {
  async connect(url) {
    const client = new Client(CLIENT_INFO);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return {
      call: (name, args) => client.callTool(args ? { name, arguments: args } : { name }),
      close: () => client.close(),
    };
  },
};
export default driver;
