/**
 * A verdict store the application gave (a shared one, on Redis say) may fail or answer late. A
 * verdict only saves a probe, so no call fails for it: the failure is reported as a `warning`
 * and the client goes on with a memory that every verdict is also written to, one per store, so
 * the clients that share a store share its stand-in too. Without a store of the application's,
 * the client's own memory is the store.
 */

import { asError } from '../core/call-boundary.ts';
import { isMcpError, StoreUnavailableError } from '../core/errors.ts';
import { memoryVerdictStore, type Verdict, type VerdictStore } from '../dialects/verdicts.ts';

const standIns = new WeakMap<VerdictStore, VerdictStore>();

export function guardedVerdicts(
  store: VerdictStore | undefined,
  own: VerdictStore,
  warn: (error: Error) => void,
): VerdictStore {
  if (store === undefined) return own;
  const standIn = standIns.get(store) ?? memoryVerdictStore();
  standIns.set(store, standIn);
  async function attempt<T>(
    operation: string,
    run: () => T | Promise<T>,
    otherwise: () => T | Promise<T>,
  ): Promise<T> {
    try {
      return await run();
    } catch (error) {
      warn(
        isMcpError(error)
          ? error
          : new StoreUnavailableError(`verdicts.${operation}`, asError(error).message, {
              cause: error,
            }),
      );
      return otherwise();
    }
  }
  return {
    get: (url) =>
      attempt(
        'get',
        () => store.get(url),
        () => standIn.get(url),
      ),
    async set(url: string, verdict: Verdict) {
      await standIn.set(url, verdict);
      await attempt(
        'set',
        () => store.set(url, verdict),
        () => undefined,
      );
    },
    async delete(url: string) {
      await standIn.delete(url);
      await attempt(
        'delete',
        () => store.delete(url),
        () => undefined,
      );
    },
  };
}
