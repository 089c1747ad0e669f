/**
 * Prompts in 2026-07-28: the legacy fixtures plus, with the conformance fixtures, the prompt that
 * answers `input_required` (input-required-result-non-tool-request) and the prompt that the
 * conformance hook `test_trigger_prompt_change` adds and removes.
 */
import type { RequestContext } from '../context.ts';
import type { JsonObject } from '../jsonrpc.ts';
import { pageResult, paginate } from '../pagination.ts';
import { currentPrompts, getPrompt } from '../prompts.ts';
import { accepted, elicitField, inputRequired, inputResponse, requireCapability } from './mrtr.ts';

const MRTR_PROMPT = 'test_input_required_result_prompt';

interface Descriptor {
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly JsonObject[];
}

function modernPrompts(ctx: RequestContext): Descriptor[] {
  const prompts: Descriptor[] = currentPrompts(ctx.fixtures).map((prompt) => ({
    name: prompt.name,
    description: prompt.description,
    arguments: prompt.arguments.map((argument) => ({ ...argument })),
  }));
  if (ctx.fixtures.conformance) {
    prompts.push({
      name: MRTR_PROMPT,
      description: 'Elicits the context to use, then builds the prompt from it.',
      arguments: [],
    });
  }
  if (ctx.fixtures.bonusPrompt) {
    prompts.push({
      name: 'bonus_prompt',
      description: 'Exists while it is toggled on.',
      arguments: [],
    });
  }
  return prompts;
}

/** `prompts/list` in 2026-07-28. */
export function listModernPrompts(params: JsonObject, ctx: RequestContext): JsonObject {
  return pageResult(
    'prompts',
    paginate('prompts', modernPrompts(ctx), params, ctx.fixtures.pageSize),
  );
}

/** `prompts/get` in 2026-07-28. */
export function getModernPrompt(params: JsonObject, ctx: RequestContext): JsonObject {
  const name = params['name'];
  if (name === 'bonus_prompt' && ctx.fixtures.bonusPrompt) {
    return { messages: [{ role: 'user', content: { type: 'text', text: 'bonus' } }] };
  }
  if (name !== MRTR_PROMPT || !ctx.fixtures.conformance) return getPrompt(params, ctx.fixtures);
  requireCapability(ctx, 'elicitation');
  const answer = inputResponse(ctx, 'user_context');
  if (answer === undefined) {
    return inputRequired({
      user_context: elicitField('What context should the prompt use?', 'context'),
    });
  }
  const context = accepted(answer)?.['context'];
  return {
    description: 'A prompt built from elicited context',
    messages: [
      { role: 'user', content: { type: 'text', text: `Context: ${String(context ?? 'none')}` } },
    ],
  };
}
