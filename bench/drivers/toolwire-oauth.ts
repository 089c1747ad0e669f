/**
 * toolwire on the protected path with OAuth's client credentials grant, as the README's
 * Authorization section shows it, and a store of its own per client: every connect meets the
 * 401, reads the resource's and the issuer's metadata, and asks the token endpoint (all in
 * `server.ts`) before its `server/discover` goes again. Calls then carry the token it got.
 */
import { memoryAuthStore } from '@toolwire/client';
import { OAUTH_CLIENT } from '../protocol.ts';
import type { Driver } from './driver.ts';
import { benchClient, toolwireSession } from './toolwire.ts';

const driver: Driver = {
  connect: (url) =>
    toolwireSession(
      benchClient(url, {
        auth: {
          grant: { type: 'client_credentials' },
          client: { ...OAUTH_CLIENT },
          store: memoryAuthStore(),
        },
      }),
    ),
};
export default driver;
