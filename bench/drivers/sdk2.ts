/** The official v2 client (@modelcontextprotocol/client), with its defaults. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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
