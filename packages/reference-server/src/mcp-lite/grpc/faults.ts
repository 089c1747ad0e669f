import type { GrpcFailure, GrpcFaults, GrpcRpc } from './types.ts';

interface FailureRule {
  remaining: number;
  readonly failure: GrpcFailure;
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

/** The gRPC binding's fault switches; the service consumes them with the `take*` methods. */
export class GrpcFaultController implements GrpcFaults {
  #failures: FailureRule[] = [];
  #cut = false;
  #unknownType: number | undefined;
  #delayMs = 0;

  failNext(count: number, failure: GrpcFailure): void {
    assertCount('count', count);
    if (failure.pushbackMs !== undefined && !Number.isSafeInteger(failure.pushbackMs)) {
      throw new RangeError(`pushbackMs must be an integer, got ${failure.pushbackMs}`);
    }
    if (count > 0) this.#failures.push({ remaining: count, failure: { ...failure } });
  }

  cutStreamBeforeMeta(): void {
    this.#cut = true;
  }

  unknownResponseType(value = 99): void {
    // 0 to 4 are the enum's own values.
    if (!Number.isSafeInteger(value) || (value >= 0 && value <= 4)) {
      throw new RangeError(`value must be an integer the enum does not define, got ${value}`);
    }
    this.#unknownType = value;
  }

  delay(ms: number): void {
    assertCount('ms', ms);
    this.#delayMs = ms;
  }

  reset(): void {
    this.#failures = [];
    this.#cut = false;
    this.#unknownType = undefined;
    this.#delayMs = 0;
  }

  get delayMs(): number {
    return this.#delayMs;
  }

  /** Consumes one failNext rule for an RPC. */
  takeFailure(rpc: GrpcRpc): GrpcFailure | undefined {
    const rule = this.#failures.find(
      ({ failure }) => failure.rpc === undefined || failure.rpc === rpc,
    );
    if (rule === undefined) return undefined;
    rule.remaining--;
    if (rule.remaining === 0) this.#failures.splice(this.#failures.indexOf(rule), 1);
    return rule.failure;
  }

  /** Consumes the cut armed for the next stream. */
  takeCut(): boolean {
    const cut = this.#cut;
    this.#cut = false;
    return cut;
  }

  /** Consumes the unknown enum value armed for the next answer. */
  takeUnknownType(): number | undefined {
    const value = this.#unknownType;
    this.#unknownType = undefined;
    return value;
  }
}
