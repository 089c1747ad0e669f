/**
 * Records keyed by tool names, which the server chose, for both adapters: `__proto__` must be a
 * property like any other rather than the record's prototype, and `constructor` no name a record
 * already has.
 */

/** Sets `key` as an own, enumerable property, whatever its name. */
export function setOwn<R extends Record<string, unknown>>(
  record: R,
  key: string,
  value: R[string],
): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** The value under `key` in `record` itself, never one it inherits (`constructor`, say). */
export function getOwn<T>(
  record: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
