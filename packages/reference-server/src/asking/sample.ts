/** `sample`: asks the client's model for a completion, optionally offering it a tool. */
import type { ToolDefinition } from '../tools.ts';
import { FORCE_PROPERTY, flag, numberOr, stringOr } from './args.ts';
import { answerTo, ask, structured } from './ask.ts';
import { sampling } from './requests.ts';
import { callScope } from './scope.ts';

const KEY = 'sample';

export const SAMPLE_TOOL: ToolDefinition = {
  name: 'sample',
  description:
    "Asks the client's model to answer a prompt (sampling/createMessage) and returns the " +
    'CreateMessageResult as received. With withTools, offers the model a get_weather tool ' +
    '(toolChoice auto). Needs the client capability sampling (sampling.tools with withTools) ' +
    'unless force is true.',
  inputSchema: {
    type: 'object',
    properties: {
      prompt: { type: 'string', description: 'The user message sent to the model.' },
      maxTokens: { type: 'integer', minimum: 1, default: 100 },
      withTools: {
        type: 'boolean',
        default: false,
        description: 'Offer the tool get_weather({ city }) with toolChoice { mode: "auto" }.',
      },
      force: FORCE_PROPERTY,
    },
    required: ['prompt'],
  },
  run: async (args, ctx) => {
    const question = sampling(
      stringOr(args, 'prompt', ''),
      numberOr(args, 'maxTokens', 100),
      flag(args, 'withTools'),
    );
    const outcome = await ask(ctx, {
      scope: callScope('sample', args),
      steps: [{ [KEY]: question }],
      force: flag(args, 'force'),
    });
    if ('reply' in outcome) return outcome.reply;
    return structured(answerTo(outcome.answers, KEY));
  },
};
