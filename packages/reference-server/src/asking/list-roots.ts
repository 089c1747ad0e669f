/** `list_roots`: asks the client for its roots (roots/list). */
import type { ToolDefinition } from '../tools.ts';
import { FORCE_PROPERTY, flag } from './args.ts';
import { answerTo, ask, structured } from './ask.ts';
import { LIST_ROOTS } from './requests.ts';
import { callScope } from './scope.ts';

const KEY = 'roots';

export const LIST_ROOTS_TOOL: ToolDefinition = {
  name: 'list_roots',
  description:
    'Asks the client for its roots (roots/list) and returns the answer as received: { roots: [...] }. ' +
    'Needs the client capability roots unless force is true.',
  inputSchema: {
    type: 'object',
    properties: { force: FORCE_PROPERTY },
    additionalProperties: false,
  },
  run: async (args, ctx) => {
    const outcome = await ask(ctx, {
      scope: callScope('list_roots', args),
      steps: [{ [KEY]: LIST_ROOTS }],
      force: flag(args, 'force'),
    });
    if ('reply' in outcome) return outcome.reply;
    return structured(answerTo(outcome.answers, KEY));
  },
};
