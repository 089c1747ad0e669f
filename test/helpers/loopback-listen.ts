/**
 * Preloaded with `node --import` into a server process that calls `listen(PORT)` itself: every
 * listen goes to a free port on 127.0.0.1 instead (never all interfaces), and the port is
 * reported on stderr as `LISTENING <port>` for the parent to read.
 */
import { type AddressInfo, Server } from 'node:net';

type Listen = (this: Server, port: number, host: string, callback?: () => void) => Server;

const listen = Server.prototype.listen as Listen;

Server.prototype.listen = function (this: Server, ...args: unknown[]): Server {
  const callback = args.find((arg): arg is () => void => typeof arg === 'function');
  this.once('listening', () => {
    process.stderr.write(`LISTENING ${(this.address() as AddressInfo).port}\n`);
  });
  return listen.call(this, 0, '127.0.0.1', callback);
} as typeof Server.prototype.listen;
