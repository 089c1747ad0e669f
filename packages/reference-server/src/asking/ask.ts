/**
 * One way for a tool to ask the client, whatever the era: in a legacy session the questions are
 * sent on the call's stream and awaited; in 2026-07-28 they come back as `input_required` and
 * the retry brings the answers. Either way the capability check comes first, unless `force`.
 */
import { text } from '../content.ts';
import type { RequestContext } from '../context.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { capabilityFor, missingCapabilities } from './capabilities.ts';
import { askTogether } from './legacy.ts';
import { askInSteps, type Step } from './modern.ts';

export type { Step } from './modern.ts';

/** What a tool asks, step after step (the questions of one step are asked together). */
export interface Plan {
  /** What the requestState is bound to (see callScope). */
  readonly scope: string;
  readonly steps: readonly Step[];
  /** Ask even when the client did not declare the capability. */
  readonly force: boolean;
  /** 2026-07-28 only: answer the first attempt with a requestState and no questions. */
  readonly shed?: boolean;
}

/** The answers of every step, or the result the tool must return now. */
export type PlanOutcome = { readonly answers: JsonObject[] } | { readonly reply: JsonObject };

/** Runs `plan` in the caller's era. */
export async function ask(ctx: RequestContext, plan: Plan): Promise<PlanOutcome> {
  if (!plan.force) {
    const needed = plan.steps.flatMap((step) => Object.values(step).map(capabilityFor));
    const refusal = missingCapabilities(ctx, needed);
    if (refusal !== undefined) return { reply: refusal };
  }
  if (ctx.modern !== undefined) return askInSteps(ctx, plan.scope, plan.steps, plan.shed === true);
  const answers: JsonObject[] = [];
  // A new step only once the previous one is answered.
  for (const step of plan.steps) {
    const asked = await askTogether(ctx, step);
    if ('failure' in asked) return { reply: asked.failure };
    answers.push(asked.answers);
  }
  return { answers };
}

/** A tool result carrying `value` as structuredContent and as its JSON text. */
export function structured(value: JsonObject): JsonObject {
  return { content: [text(JSON.stringify(value))], structuredContent: value };
}

/** The answer to `key` in step `index`; ask() returns only once every one of them is there. */
export function answerTo(answers: readonly JsonObject[], key: string, index = 0): JsonObject {
  const value = answers[index]?.[key];
  if (!isObject(value)) throw new RpcError(ErrorCode.InternalError, `no answer to ${key}`);
  return value;
}
