/** Fixture tools that exist only in 2026-07-28, because they answer with `input_required`. */
import { textResult } from '../content.ts';
import type { ToolDefinition } from '../tools.ts';
import {
  accepted,
  elicitField,
  inputRequired,
  inputResponse,
  requireCapability,
  signState,
  verifiedState,
} from './mrtr.ts';

const SCOPE = 'tools/call:ask_name';

/** `ask_name`: elicits the user's name (form mode) and greets them once the client retries. */
export const ASK_NAME_TOOL: ToolDefinition = {
  name: 'ask_name',
  era: 'modern',
  description:
    'Asks the user for their name with elicitation (an input_required result), then greets them. ' +
    'Needs the elicitation capability.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  run: (_args, ctx) => {
    requireCapability(ctx, 'elicitation');
    const state = verifiedState(ctx, SCOPE);
    const answer = inputResponse(ctx, 'name');
    // The answer only counts with the state it was asked under, so a first attempt cannot skip it.
    if (state === undefined || answer === undefined) {
      return inputRequired(
        { name: elicitField('What is your name?', 'name') },
        signState(ctx, SCOPE, {}),
      );
    }
    const content = accepted(answer);
    const name = content?.['name'];
    if (typeof name !== 'string') return textResult('the user did not give a name');
    return textResult(`Hello, ${name}!`);
  },
};
