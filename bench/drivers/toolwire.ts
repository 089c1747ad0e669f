/**
 * toolwire with the options a benchmark needs: a fresh verdict store per client, so every
 * connect negotiates from scratch (a kept verdict would hide the probe), and no GET stream,
 * which the other clients' connect figures do not include either.
 */
import { type ClientOptions, createMcpClient, type McpClient } from '@toolwire/client';
import { CLIENT_INFO, type Driver, type Session } from './driver.ts';

/** The client every toolwire driver measures, adapters included; `more` adds to the options. */
export function benchClient(url: string, more: ClientOptions = {}): McpClient {
  return createMcpClient(url, {
    clientInfo: CLIENT_INFO,
    protocolVersion: 'auto',
    listen: false,
    ...more,
  });
}

/** A toolwire client connected, driven through `callTool`. */
export async function toolwireSession(client: McpClient): Promise<Session> {
  await client.connect();
  return {
    call: (tool, args) => client.callTool(tool, args),
    close: () => client.close(),
  };
}

const driver: Driver = {
  connect: (url) => toolwireSession(benchClient(url)),
};
export default driver;
