/**
 * A server's input schema may nest deeper than what walks it recursively can follow (a
 * provider's JSON.stringify, a schema converter): one such tool must not take its whole tool set
 * down. Past `MAX_DEPTH` levels (the bound the client's 2026-07-28 screen uses) both adapters show
 * the model an open object instead, and the arguments are still checked against the server's schema.
 */
import type { JsonSchema } from '../core/types.ts';

const MAX_DEPTH = 64;

/** Whether `value` nests objects or arrays more than 64 levels deep. */
export function nestsTooDeep(value: unknown): boolean {
  return deeperThanBound(value, 0);
}

function deeperThanBound(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // The walk stops here: it never goes deeper than the bound itself.
  if (depth >= MAX_DEPTH) return true;
  for (const child of Object.values(value)) if (deeperThanBound(child, depth + 1)) return true;
  return false;
}

/** What the model is shown for a schema nested too deep: any object. */
export function openSchema(): JsonSchema {
  return { type: 'object', properties: {} };
}
