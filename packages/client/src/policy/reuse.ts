/**
 * Results worth reusing: a tool the server marks read-only and idempotent (or the application
 * names) called again with the same arguments within the time to live gets the kept result, and
 * identical calls in flight share one request. A result the server marks `cache_hint: "no-cache"`
 * (in `_meta` or beside `content`), an error result and a deferred call's handle are never kept.
 */
import { asError } from '../core/call-boundary.ts';
import { AbortedError, isMcpError, TimeoutError } from '../core/errors.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { CallToolResult, Tool } from '../core/types.ts';
import type { PolicyNote, PolicyStore, ReuseOptions } from './types.ts';

export interface ReuseSettings {
  server: string;
  options: ReuseOptions;
  store: PolicyStore;
  note: (note: PolicyNote) => void;
  warn: (error: Error) => void;
}

export class ResultReuse {
  readonly #flights = new Map<string, Promise<CallToolResult>>();
  readonly #named: ReadonlySet<string>;
  readonly #settings: ReuseSettings;

  constructor(settings: ReuseSettings) {
    this.#settings = settings;
    this.#named = new Set(settings.options.tools ?? []);
  }

  /** Whether calls of `name` may be reused: named, or declared read-only and idempotent. */
  covers(name: string, tool: Tool | undefined): boolean {
    if (this.#named.has(name)) return true;
    const hints = tool?.annotations;
    return hints?.readOnlyHint === true && hints.idempotentHint === true;
  }

  /**
   * The result of `name(args)`: kept, shared with an identical call in flight, or `call()`ed. A
   * caller that joins another's call still ends on its own signal and timeout.
   */
  run(
    name: string,
    args: JsonObject,
    limits: { signal: AbortSignal | undefined; timeoutMs: number; tool: string },
    call: () => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    const { server, options, store, note, warn } = this.#settings;
    const { signal } = limits;
    const key = keyOf(server, options.partition ?? '', name, args);
    const flight = this.#flights.get(key);
    if (flight) {
      note({ kind: 'reused', tool: name, shared: true });
      // Each caller gets its own copy; a flight ended by its first caller's signal or deadline
      // is not this caller's end: it calls for itself.
      const joined = flight.then(structuredClone, (error: unknown) => {
        if (isMcpError(error) && (error.code === 'ABORTED' || error.code === 'TIMEOUT')) {
          if (!signal?.aborted) return call();
        }
        throw error;
      });
      return within(joined, limits);
    }
    const started = this.#kept(key).then((kept) => {
      if (kept) {
        note({ kind: 'reused', tool: name, shared: false });
        return kept;
      }
      return call().then((result) => {
        if (worthKeeping(result)) {
          store
            .keepResult(key, result, options.ttlMs)
            .catch((error: unknown) => warn(asError(error)));
        }
        return result;
      });
    });
    this.#flights.set(key, started);
    const forget = () => {
      if (this.#flights.get(key) === started) this.#flights.delete(key);
    };
    started.then(forget, forget);
    // A copy for the first caller too: what it does with its result no other caller sees.
    return started.then(structuredClone);
  }

  /** What the store keeps for `key`; a store that fails is reported and the call is made. */
  #kept(key: string): Promise<CallToolResult | undefined> {
    return this.#settings.store.result(key).catch((error: unknown) => {
      this.#settings.warn(asError(error));
      return undefined;
    });
  }
}

/** One key per server, partition, tool and arguments, whatever order the arguments' keys came in. */
export function keyOf(server: string, partition: string, name: string, args: JsonObject): string {
  return `${server}\n${partition}\n${name}\n${canonical(args)}`;
}

/** `waiting`, or the caller's own end: its signal's abort or its timeout, typed as a call's. */
function within<T>(
  waiting: Promise<T>,
  limits: { signal: AbortSignal | undefined; timeoutMs: number; tool: string },
): Promise<T> {
  const { signal, timeoutMs, tool } = limits;
  const where = { method: 'tools/call', tool };
  if (signal?.aborted) return Promise.reject(new AbortedError({ ...where, cause: signal.reason }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      done();
      reject(new AbortedError({ ...where, cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      done();
      reject(new TimeoutError(timeoutMs, where));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    waiting.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as JsonObject)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A result to keep: the tool's own answer, complete, that the server did not mark no-cache. */
function worthKeeping(result: CallToolResult): boolean {
  if (result.isError === true || result.pending) return false;
  const raw = result as unknown as JsonObject;
  const meta = raw['_meta'] as JsonObject | undefined;
  return raw['cache_hint'] !== 'no-cache' && meta?.['cache_hint'] !== 'no-cache';
}
