/**
 * The soak's servers in a process of their own: the counting server and the fault proxy in
 * front of it. Apart from the client's process, the handles left after `close()` are the
 * client's alone, and the servers get a core of their own. Driven over IPC by soak.ts.
 *
 * Argument: the proxy's options as JSON ({ seed, rate, delayMs, kinds? }).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startCountingServer } from './counting-server.ts';
import { startFaultProxy } from './fault-proxy.ts';

const options = JSON.parse(process.argv[2] ?? '{}');
const server = await startCountingServer();
const proxy = await startFaultProxy({ upstream: server, ...options });
// How late this process ran: a stalled proxy times calls out as surely as a broken client would.
const loop = monitorEventLoopDelay({ resolution: 20 });
loop.enable();
process.send?.({ ready: { url: proxy.url, modernUrl: proxy.modernUrl } });
process.on('message', async (message) => {
  if (message === 'report') {
    process.send?.({
      report: {
        executions: [...server.executions],
        faults: proxy.faults,
        requests: [...proxy.requests],
        loopDelayMaxMs: Math.round(loop.max / 1e6),
      },
    });
  } else if (message === 'stop') {
    await proxy.close();
    await server.close();
    process.disconnect();
  }
});
