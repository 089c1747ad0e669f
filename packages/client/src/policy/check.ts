/**
 * The `policy` option checked (a TypeError naming what is wrong, as every option's), and the
 * pieces a client builds from it: nothing at all when it paces and reuses nothing.
 */
import { usageError } from '../core/call-boundary.ts';
import type { OptionKeys } from '../core/option-keys.ts';
import { Admission } from './admission.ts';
import { memoryPolicyStore } from './memory-store.ts';
import { ResultReuse } from './reuse.ts';
import type { CallPolicy, CallRate, PolicyNote, PolicyStore, ReuseOptions } from './types.ts';

const REUSE_KEYS = {
  ttlMs: true,
  tools: true,
  partition: true,
} as const satisfies OptionKeys<ReuseOptions>;

/** The keys `policy` takes: a key of the interfaces left out here does not compile. */
export const POLICY_KEYS = {
  concurrency: true,
  rate: { requests: true, intervalMs: true } satisfies OptionKeys<CallRate>,
  // `reuse: false` has no keys to check.
  reuse: () => REUSE_KEYS,
  store: true,
} as const satisfies OptionKeys<CallPolicy>;

/** What a client runs its calls through; undefined parts cost nothing. */
export interface PolicyParts {
  admission: Admission | undefined;
  reuse: ResultReuse | undefined;
}

export function checkPolicy(policy: CallPolicy | undefined): void {
  if (policy === undefined) return;
  if (typeof policy !== 'object' || policy === null) {
    throw usageError('expected `policy` to be an object');
  }
  const { concurrency, rate, reuse, store } = policy;
  if (concurrency !== undefined) whole('policy.concurrency', concurrency);
  if (rate !== undefined) {
    if (typeof rate !== 'object' || rate === null) {
      throw usageError('expected `policy.rate` to be { requests, intervalMs }');
    }
    whole('policy.rate.requests', rate.requests);
    positive('policy.rate.intervalMs', rate.intervalMs);
  }
  if (reuse !== undefined && reuse !== false) {
    if (typeof reuse !== 'object' || reuse === null) {
      throw usageError('expected `policy.reuse` to be { ttlMs, tools? } or false');
    }
    positive('policy.reuse.ttlMs', reuse.ttlMs);
    if (
      reuse.tools !== undefined &&
      (!Array.isArray(reuse.tools) || !reuse.tools.every((name) => typeof name === 'string'))
    ) {
      throw usageError('expected `policy.reuse.tools` to be a list of tool names');
    }
    if (reuse.partition !== undefined && typeof reuse.partition !== 'string') {
      throw usageError('expected `policy.reuse.partition` to be a string');
    }
  }
  if (store !== undefined) checkStore(store);
}

/** The parts the policy asks for, or undefined when it asks for none. */
export function policyParts(
  policy: CallPolicy | undefined,
  server: string,
  note: (note: PolicyNote) => void,
  warn: (error: Error) => void,
): PolicyParts | undefined {
  if (!policy) return undefined;
  const { concurrency, rate, reuse, store } = policy;
  const paces = concurrency !== undefined || rate !== undefined || store !== undefined;
  // A shared store or a rate needs the store's answer for every start; a limit alone does not.
  const shared = store ?? (rate ? memoryPolicyStore() : undefined);
  const admission = paces
    ? new Admission({
        server,
        concurrency: concurrency ?? Number.POSITIVE_INFINITY,
        rate,
        store: shared,
        note,
        warn,
      })
    : undefined;
  const reused = reuse
    ? new ResultReuse({
        server,
        options: reuse,
        store: store ?? shared ?? memoryPolicyStore(),
        note,
        warn,
      })
    : undefined;
  if (!admission && !reused) return undefined;
  return { admission, reuse: reused };
}

function checkStore(store: PolicyStore): void {
  const methods = store as Partial<Record<keyof PolicyStore, unknown>> | null;
  const needed = ['take', 'hold', 'result', 'keepResult'] as const;
  if (
    typeof methods !== 'object' ||
    methods === null ||
    needed.some((name) => typeof methods[name] !== 'function')
  ) {
    throw usageError(`expected \`policy.store\` to be a store with ${needed.join(', ')}`);
  }
}

function whole(name: string, value: number): void {
  if (!(typeof value === 'number' && Number.isInteger(value) && value > 0)) {
    throw usageError(`expected \`${name}\` to be a whole number > 0, got ${String(value)}`);
  }
}

function positive(name: string, value: number): void {
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value))) {
    throw usageError(`expected \`${name}\` to be a positive number, got ${String(value)}`);
  }
}
