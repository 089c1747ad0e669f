import type { HostileSkill } from './skills.ts';
import type { FailReply, Faults } from './types.ts';

/** What the next POST-answered SSE stream should suffer; both fields absent means nothing. */
export interface StreamFault {
  cutAfter?: number;
  closeAfterPrimingMs?: number;
}

interface FailureRule {
  remaining: number;
  readonly reply: FailReply;
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

/**
 * The fault switches. Tests flip them through the public {@link Faults} methods; the transport
 * consumes them through the `take*` methods at the moment a fault applies.
 */
export class FaultController implements Faults {
  readonly #dropSessions: () => void;
  readonly #hostileSkills: Set<HostileSkill>;
  #failures: FailureRule[] = [];
  #streamFault: StreamFault = {};
  #delayMs = 0;

  constructor(dropSessions: () => void, hostileSkills: Set<HostileSkill> = new Set()) {
    this.#dropSessions = dropSessions;
    this.#hostileSkills = hostileSkills;
  }

  hostileSkills(...variants: HostileSkill[]): void {
    this.#hostileSkills.clear();
    for (const variant of variants) this.#hostileSkills.add(variant);
  }

  dropSessions(): void {
    this.#dropSessions();
  }

  failNext(count: number, reply: FailReply): void {
    assertCount('count', count);
    if (!Number.isSafeInteger(reply.status) || reply.status < 200 || reply.status > 599) {
      throw new RangeError(
        `reply.status must be an HTTP status from 200 to 599, got ${reply.status}`,
      );
    }
    if (count > 0) this.#failures.push({ remaining: count, reply: { ...reply } });
  }

  cutStreamAfter(events: number): void {
    assertCount('events', events);
    this.#streamFault.cutAfter = events;
  }

  closeAfterPriming(retryMs: number): void {
    assertCount('retryMs', retryMs);
    this.#streamFault.closeAfterPrimingMs = retryMs;
  }

  delay(ms: number): void {
    assertCount('ms', ms);
    this.#delayMs = ms;
  }

  reset(): void {
    this.#failures = [];
    this.#streamFault = {};
    this.#delayMs = 0;
    this.#hostileSkills.clear();
  }

  /** Milliseconds every response is currently delayed by. */
  get delayMs(): number {
    return this.#delayMs;
  }

  /** Consumes one matching failNext rule for a POST carrying these JSON-RPC methods. */
  takeFailure(methods: readonly string[]): FailReply | undefined {
    const rule = this.#failures.find(
      ({ reply }) => reply.method === undefined || methods.includes(reply.method),
    );
    if (rule === undefined) return undefined;
    rule.remaining--;
    if (rule.remaining === 0) this.#failures.splice(this.#failures.indexOf(rule), 1);
    return rule.reply;
  }

  /** Consumes the armed stream faults for the POST SSE stream that is opening now. */
  takeStreamFault(): StreamFault {
    const fault = this.#streamFault;
    this.#streamFault = {};
    return fault;
  }
}
