/**
 * A digest of a webtool's metadata: SHA-256 over its canonical JSON (keys sorted at every level),
 * so the same definitions give the same digest however the server orders its fields.
 */
import { createHash } from 'node:crypto';
import { isObject } from '../../core/jsonrpc.ts';

export function digestOf(metadata: unknown): string {
  return `sha256:${createHash('sha256').update(canonical(metadata)).digest('hex')}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
