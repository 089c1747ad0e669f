import type { McpClient } from '@toolwire/client';
import { expect } from 'vitest';
import { waitFor } from './wait-for.ts';

/**
 * Open sockets and timers in this process, the resources a client could leak. Measured with the
 * server still running: only the client closing its own brings the count back to a baseline.
 */
export function handles(): number {
  return process
    .getActiveResourcesInfo()
    .filter((kind) => kind === 'TCPSocketWrap' || kind === 'Timeout').length;
}

/**
 * The count once it has stopped changing: sockets an earlier test closed are released a few
 * turns of the event loop later, and short timers of the test runner's own live up to about
 * 100 ms; either would sit in a baseline and hide a leak of the same size. Settled means the
 * same count for 200 ms.
 */
export async function settledHandles(): Promise<number> {
  let count = handles();
  let steady = 0;
  for (let turn = 0; turn < 100 && steady < 10; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = handles();
    steady = now === count ? steady + 1 : 0;
    count = now;
  }
  return count;
}

/**
 * Proves a client leaves nothing behind: while a `progress` call runs, its socket and deadline
 * count above the baseline; after `close()` the count comes back to it, the server still running.
 */
export async function expectCleanClose(client: McpClient, baseline: number): Promise<void> {
  let during = 0;
  const onProgress = () => {
    during = handles();
  };
  await client.callTool('progress', { steps: 2 }, { onProgress });
  expect(during).toBeGreaterThan(baseline);
  await client.close();
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
}
