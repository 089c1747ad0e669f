/**
 * toolwire with the options a benchmark needs: a fresh verdict store per client, so every
 * connect negotiates from scratch (a kept verdict would hide the probe), and no GET stream,
 * which the other clients' connect figures do not include either.
 */
import { createMcpClient, type McpClient, memoryVerdictStore } from '@toolwire/client';
import { CLIENT_INFO, type Driver } from './driver.ts';

/** The client every toolwire driver measures, adapters included. */
export function benchClient(url: string): McpClient {
  return createMcpClient(url, {
    clientInfo: CLIENT_INFO,
    protocolVersion: 'auto',
    verdicts: memoryVerdictStore(),
    listen: false,
  });
}

const driver: Driver = {
  async connect(url) {
    const client = benchClient(url);
    await client.connect();
    return {
      call: (tool, args) => client.callTool(tool, args),
      close: () => client.close(),
    };
  },
};
export default driver;
