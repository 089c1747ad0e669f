/** `survey`: asks three things at once (a form, a completion, the roots), to test concurrency. */
import type { ToolDefinition } from '../tools.ts';
import { FORCE_PROPERTY, flag } from './args.ts';
import { answerTo, ask, structured } from './ask.ts';
import { NAME_SCHEMA } from './elicit.ts';
import { formElicitation, LIST_ROOTS, sampling } from './requests.ts';
import { callScope } from './scope.ts';

export const SURVEY_TOOL: ToolDefinition = {
  name: 'survey',
  description:
    'Asks three things at once: a form with one string field name (elicitation), a completion ' +
    'of "Say hi" (sampling) and the roots (roots/list), and returns the three answers as ' +
    '{ elicitation, sampling, roots }. Needs all three client capabilities unless force is true.',
  inputSchema: {
    type: 'object',
    properties: { force: FORCE_PROPERTY },
    additionalProperties: false,
  },
  run: async (args, ctx) => {
    const outcome = await ask(ctx, {
      scope: callScope('survey', args),
      // One step: in a legacy session all three are in flight before any answer is awaited.
      steps: [
        {
          name: formElicitation('What is your name?', NAME_SCHEMA),
          hi: sampling('Say hi', 100),
          roots: LIST_ROOTS,
        },
      ],
      force: flag(args, 'force'),
    });
    if ('reply' in outcome) return outcome.reply;
    return structured({
      elicitation: answerTo(outcome.answers, 'name'),
      sampling: answerTo(outcome.answers, 'hi'),
      roots: answerTo(outcome.answers, 'roots'),
    });
  },
};
