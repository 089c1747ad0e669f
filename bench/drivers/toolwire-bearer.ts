/**
 * toolwire on the protected path, given its token as the README's Authorization section shows a
 * static token: `auth: token`. It goes on every request; the floor is `undici-bearer.ts`.
 */
import { BEARER_TOKEN } from '../protocol.ts';
import type { Driver } from './driver.ts';
import { benchClient, toolwireSession } from './toolwire.ts';

const driver: Driver = {
  connect: (url) => toolwireSession(benchClient(url, { auth: BEARER_TOKEN })),
};
export default driver;
