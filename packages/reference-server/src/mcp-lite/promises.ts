/**
 * Promise tokens (MCP-lite §3.5): globally unique, unguessable, time-bounded and opaque. The only
 * state an MCP-lite server keeps. Each token is redeemed into another promise `polls` times
 * before the result is ready, which keeps tests free of clocks.
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../jsonrpc.ts';

const TOKEN_TTL_MS = 10 * 60 * 1000;

interface Pending {
  result: JsonObject;
  pollsLeft: number;
  expiresAt: number;
}

export class PromiseStore {
  readonly #pending = new Map<string, Pending>();

  /** Issues a token whose redemption yields `result` after `polls` more promises. */
  issue(result: JsonObject, polls: number): string {
    const token = `prom_${randomBytes(16).toString('hex')}`;
    this.#pending.set(token, { result, pollsLeft: polls, expiresAt: Date.now() + TOKEN_TTL_MS });
    return token;
  }

  /** The result, `'wait'` while it is not ready, or undefined for an unknown or expired token. */
  redeem(token: string): JsonObject | 'wait' | undefined {
    const pending = this.#pending.get(token);
    if (!pending || pending.expiresAt < Date.now()) {
      this.#pending.delete(token);
      return undefined;
    }
    if (pending.pollsLeft > 0) {
      pending.pollsLeft -= 1;
      return 'wait';
    }
    this.#pending.delete(token);
    return pending.result;
  }

  clear(): void {
    this.#pending.clear();
  }
}
