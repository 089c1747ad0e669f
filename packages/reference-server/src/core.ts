/**
 * The state one reference server shares between its endpoints, whatever carries the messages:
 * HTTP (`startReferenceServer`) or the standard streams (`serveStdio`).
 */
import { randomBytes } from 'node:crypto';
import type { ServerCore } from './context.ts';
import { FaultController } from './faults.ts';
import { ListenerHub } from './modern/listen.ts';
import type { Protection } from './protection.ts';
import { InFlightRequests, SessionStore } from './session.ts';
import { FixtureState } from './state.ts';
import { TaskStore } from './tasks/store.ts';
import type { ReferenceServerOptions } from './types.ts';

export const DEFAULT_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** Keep-alive comments on quiet subscriptions/listen streams, unless the options say otherwise. */
const DEFAULT_KEEP_ALIVE_MS = 15_000;

export type CoreOptions = Pick<
  ReferenceServerOptions,
  'versions' | 'pageSize' | 'conformanceFixtures' | 'dualEra' | 'keepAliveMs'
>;

/** A new core; `closing` aborts every wait in it. `protection` guards its HTTP endpoints. */
export function createCore(
  options: CoreOptions,
  closing: AbortSignal,
  protection?: Protection,
): ServerCore {
  const sessions = new SessionStore();
  const fixtures = new FixtureState(options.pageSize ?? 5, options.conformanceFixtures ?? false);
  const faults = new FaultController(() => {
    // Like a restart that lost its session table: GET streams end so clients notice promptly.
    for (const session of sessions.all()) session.disconnectStandalone();
    sessions.clear();
  }, fixtures.hostileSkills);
  return {
    versions: [...(options.versions ?? DEFAULT_VERSIONS)],
    sessions,
    fixtures,
    faults,
    cancelled: [],
    statelessInFlight: new InFlightRequests(),
    closing,
    dualEra: options.dualEra ?? false,
    listeners: new ListenerHub(options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS),
    stateKey: randomBytes(32),
    tasks: new TaskStore(closing),
    protection,
  };
}
