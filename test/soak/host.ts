/**
 * The soak's servers in a process of their own: the counting server and the fault proxy in
 * front of it. Apart from the client's process, the handles left after `close()` are the
 * client's alone, and the servers get a core of their own. Driven over IPC by soak.ts.
 *
 * Argument: the proxy's options as JSON ({ seed, rate, delayMs, kinds? }).
 */
import { startCountingServer } from './counting-server.ts';
import { startFaultProxy } from './fault-proxy.ts';

const options = JSON.parse(process.argv[2] ?? '{}');
const server = await startCountingServer();
const proxy = await startFaultProxy({ upstream: server, ...options });
process.send?.({ ready: { url: proxy.url, modernUrl: proxy.modernUrl } });
process.on('message', async (message) => {
  if (message === 'report') {
    process.send?.({
      report: {
        executions: [...server.executions],
        faults: proxy.faults,
        requests: [...proxy.requests],
      },
    });
  } else if (message === 'stop') {
    await proxy.close();
    await server.close();
    process.disconnect();
  }
});
