/**
 * toolwire against a local server: the bench's stdio server as a child process, negotiated from
 * scratch (a fresh verdict store), no subscription. The floor is `stdio-raw.ts`, a raw pipe to
 * the same child.
 */
import { createMcpClient } from '@toolwire/client';
import { CLIENT_INFO, type Driver } from './driver.ts';
import { STDIO_SERVER } from './stdio-raw.ts';

const driver: Driver = {
  async connect() {
    const client = createMcpClient(
      { command: process.execPath, args: [STDIO_SERVER] },
      { clientInfo: CLIENT_INFO, listen: false },
    );
    await client.connect();
    return {
      call: (tool, args) => client.callTool(tool, args),
      close: () => client.close(),
    };
  },
};
export default driver;
