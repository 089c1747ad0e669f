/**
 * Reading the arguments of the asking tools. The input schema has been checked before a tool
 * runs, so these only apply defaults; a type mismatch here would be a server bug.
 */
import { isObject, type JsonObject } from '../jsonrpc.ts';

export function stringOr(args: JsonObject, name: string, fallback: string): string {
  const value = args[name];
  return typeof value === 'string' ? value : fallback;
}

export function numberOr(args: JsonObject, name: string, fallback: number): number {
  const value = args[name];
  return typeof value === 'number' ? value : fallback;
}

export function flag(args: JsonObject, name: string): boolean {
  return args[name] === true;
}

export function objectOr(args: JsonObject, name: string, fallback: JsonObject): JsonObject {
  const value = args[name];
  return isObject(value) ? value : fallback;
}

/** The `force` argument every asking tool takes. */
export const FORCE_PROPERTY: JsonObject = {
  type: 'boolean',
  default: false,
  description: 'Ask even if the client did not declare the capability (to test how it refuses).',
};
