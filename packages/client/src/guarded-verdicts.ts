/**
 * A verdict store the application gave (a shared one, on Redis say) may fail or answer late. A
 * verdict only saves a probe, so no call fails for it: the failure is reported as a `warning`
 * and the client goes on with the process's own memory, which every verdict is also written to.
 */
import { asError, isMcpError, StoreUnavailableError } from './errors.ts';
import type { Verdict, VerdictStore } from './negotiate/verdicts.ts';

export function guardedVerdicts(
  store: VerdictStore,
  memory: VerdictStore,
  warn: (error: Error) => void,
): VerdictStore {
  if (store === memory) return store;
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
        () => memory.get(url),
      ),
    async set(url: string, verdict: Verdict) {
      await memory.set(url, verdict);
      await attempt(
        'set',
        () => store.set(url, verdict),
        () => undefined,
      );
    },
    async delete(url: string) {
      await memory.delete(url);
      await attempt(
        'delete',
        () => store.delete(url),
        () => undefined,
      );
    },
  };
}
