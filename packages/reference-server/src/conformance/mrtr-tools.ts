/**
 * The 2026-07-28 tools the conformance suite's server scenarios call by name: the MRTR ones
 * (input-required-result-*), and the diagnostic hooks of server-stateless (a tool needing an
 * undeclared capability, one that logs, and triggers for list changes). Names, input request keys
 * and texts are the ones the scenarios' "Server Implementation Requirements" give.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { textResult } from '../content.ts';
import type { RequestContext } from '../context.ts';
import { isObject, type JsonObject, notificationMessage } from '../jsonrpc.ts';
import {
  accepted,
  declares,
  elicitField,
  inputRequired,
  inputResponse,
  LIST_ROOTS,
  requireCapability,
  sampleText,
  signState,
  verifiedState,
} from '../modern/mrtr.ts';
import type { ToolDefinition } from '../tools.ts';

const NO_ARGUMENTS: JsonObject = { type: 'object', properties: {} };

/** A modern-only conformance tool. */
function tool(name: string, description: string, run: ToolDefinition['run']): ToolDefinition {
  return { name, era: 'modern', description, inputSchema: NO_ARGUMENTS, run };
}

/** The answers to every key, or undefined when one is missing (then the tool asks again). */
function allAnswers(ctx: RequestContext, keys: readonly string[]): JsonObject[] | undefined {
  const answers = keys.map((key) => inputResponse(ctx, key));
  return answers.every((answer) => answer !== undefined) ? answers : undefined;
}

function sampledText(answer: JsonObject): string {
  const content = answer['content'];
  return isObject(content) && typeof content['text'] === 'string' ? content['text'] : '';
}

const NAME_REQUEST = elicitField('What is your name?', 'name');

/**
 * A tool that asks for a confirmation with a signed requestState, and answers `reply` only when
 * both come back: a tampered or missing state is asked for again.
 */
function confirmWithState(name: string, description: string, reply: string): ToolDefinition {
  return tool(name, description, (_a, ctx) => {
    requireCapability(ctx, 'elicitation');
    const state = verifiedState(ctx, name);
    const answer = inputResponse(ctx, 'confirm');
    if (state === undefined || answer === undefined) {
      return inputRequired(
        { confirm: elicitField('Please confirm', 'ok', 'boolean') },
        signState(ctx, name, {}),
      );
    }
    return textResult(reply);
  });
}

export const CONFORMANCE_MRTR_TOOLS: readonly ToolDefinition[] = [
  tool('test_input_required_result_elicitation', 'Elicits a name, then greets.', (_args, ctx) => {
    requireCapability(ctx, 'elicitation');
    const answer = inputResponse(ctx, 'user_name');
    if (answer === undefined) return inputRequired({ user_name: NAME_REQUEST });
    const name = accepted(answer)?.['name'];
    return textResult(`Hello, ${typeof name === 'string' ? name : 'stranger'}!`);
  }),
  tool('test_input_required_result_sampling', 'Samples an answer, then reports it.', (_a, ctx) => {
    requireCapability(ctx, 'sampling');
    const answer = inputResponse(ctx, 'capital_question');
    if (answer === undefined) {
      return inputRequired({ capital_question: sampleText('What is the capital of France?', 100) });
    }
    return textResult(`LLM response: ${sampledText(answer)}`);
  }),
  tool('test_input_required_result_list_roots', 'Lists the roots, then names them.', (_a, ctx) => {
    requireCapability(ctx, 'roots');
    const answer = inputResponse(ctx, 'client_roots');
    if (answer === undefined) return inputRequired({ client_roots: LIST_ROOTS });
    const roots = Array.isArray(answer['roots']) ? answer['roots'] : [];
    const uris = roots.flatMap((root) =>
      isObject(root) && typeof root['uri'] === 'string' ? [root['uri']] : [],
    );
    return textResult(`roots: ${uris.join(', ')}`);
  }),
  confirmWithState(
    'test_input_required_result_request_state',
    'Round-trips a signed requestState.',
    'state-ok: the requestState verified',
  ),
  tool('test_input_required_result_multiple_inputs', 'Asks three things at once.', (_a, ctx) => {
    requireCapability(ctx, 'elicitation', 'sampling', 'roots');
    const scope = 'test_input_required_result_multiple_inputs';
    const state = verifiedState(ctx, scope);
    const answers = allAnswers(ctx, ['user_name', 'greeting', 'client_roots']);
    if (state === undefined || answers === undefined) {
      return inputRequired(
        {
          user_name: NAME_REQUEST,
          greeting: sampleText('Generate a greeting', 50),
          client_roots: LIST_ROOTS,
        },
        signState(ctx, scope, {}),
      );
    }
    return textResult('received all three inputs');
  }),
  tool('test_input_required_result_multi_round', 'Asks twice, carrying state.', (_a, ctx) => {
    requireCapability(ctx, 'elicitation');
    const scope = 'test_input_required_result_multi_round';
    const state = verifiedState(ctx, scope);
    const step1 = inputResponse(ctx, 'step1');
    const step2 = inputResponse(ctx, 'step2');
    if (state?.['round'] === 2 && step2 !== undefined) {
      const color = accepted(step2)?.['color'];
      return textResult(`${String(state['name'])} likes ${String(color)}`);
    }
    if (state?.['round'] === 1 && step1 !== undefined) {
      const name = accepted(step1)?.['name'];
      return inputRequired(
        { step2: elicitField('Step 2: What is your favorite color?', 'color') },
        signState(ctx, scope, { round: 2, name: typeof name === 'string' ? name : '' }),
      );
    }
    return inputRequired(
      { step1: elicitField('Step 1: What is your name?', 'name') },
      signState(ctx, scope, { round: 1 }),
    );
  }),
  confirmWithState(
    'test_input_required_result_tampered_state',
    'Refuses a tampered requestState.',
    'state verified',
  ),
  tool(
    'test_input_required_result_capabilities',
    'Asks only for what the client declared (sampling, elicitation).',
    (_a, ctx) => {
      const requests: JsonObject = {};
      if (declares(ctx, 'sampling'))
        requests['capital_question'] = sampleText('What is the capital of France?', 100);
      if (declares(ctx, 'elicitation')) requests['user_name'] = NAME_REQUEST;
      if (Object.keys(requests).length === 0) requireCapability(ctx, 'sampling');
      if (Object.keys(requests).every((key) => inputResponse(ctx, key) !== undefined)) {
        return textResult('received the declared inputs');
      }
      return inputRequired(requests);
    },
  ),
  tool('test_missing_capability', 'Needs sampling, so refuses clients without it.', (_a, ctx) => {
    requireCapability(ctx, 'sampling');
    const answer = inputResponse(ctx, 'sample');
    if (answer === undefined) return inputRequired({ sample: sampleText('Say something', 20) });
    return textResult(`sampled: ${sampledText(answer)}`);
  }),
  tool('test_streaming_elicitation', 'Reports progress, then elicits a name.', (_a, ctx) => {
    requireCapability(ctx, 'elicitation');
    const answer = inputResponse(ctx, 'user_name');
    if (answer === undefined) return inputRequired({ user_name: NAME_REQUEST });
    return textResult('thanks');
  }),
  tool(
    'test_logging_tool',
    'Logs three info messages when the request asks for logs.',
    async (_a, ctx) => {
      for (const step of ['started', 'working', 'done']) {
        if (ctx.logAllows('info')) {
          ctx.sendRelated(
            notificationMessage('notifications/message', {
              level: 'info',
              logger: 'conformance',
              data: step,
            }),
          );
        }
        await sleep(20, undefined, { signal: ctx.signal });
      }
      return textResult('logged');
    },
  ),
  tool(
    'test_trigger_tool_change',
    'Adds or removes the tool bonus and announces it.',
    (_a, ctx) => {
      ctx.fixtures.bonusTool = !ctx.fixtures.bonusTool;
      ctx.notifySessions(notificationMessage('notifications/tools/list_changed'));
      return textResult(ctx.fixtures.bonusTool ? 'bonus tool added' : 'bonus tool removed');
    },
  ),
  tool(
    'test_trigger_prompt_change',
    'Adds or removes the prompt bonus_prompt and announces it.',
    (_a, ctx) => {
      ctx.fixtures.bonusPrompt = !ctx.fixtures.bonusPrompt;
      ctx.notifySessions(notificationMessage('notifications/prompts/list_changed'));
      return textResult(ctx.fixtures.bonusPrompt ? 'bonus prompt added' : 'bonus prompt removed');
    },
  ),
];
