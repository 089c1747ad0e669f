/** `elicit`: form-mode elicitation, in one or several rounds. */
import type { JsonObject } from '../jsonrpc.ts';
import type { ToolDefinition } from '../tools.ts';
import { FORCE_PROPERTY, flag, numberOr, objectOr, stringOr } from './args.ts';
import { answerTo, ask, structured } from './ask.ts';
import { missingCapabilities } from './capabilities.ts';
import { askOnce } from './legacy.ts';
import { formElicitation, type Question } from './requests.ts';
import { callScope } from './scope.ts';

/** The form asked for when the caller gives no `requestedSchema`: one string, `name`. */
export const NAME_SCHEMA: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};

/** The key each round's question goes under in `inputRequests`. */
const KEY = 'form';

/** Legacy `cancelAfterMs`: asks once, and withdraws the question if it is still unanswered then. */
async function askThenWithdraw(
  ctx: Parameters<ToolDefinition['run']>[1],
  question: Question,
  cancelAfterMs: number,
  force: boolean,
): Promise<JsonObject> {
  const refusal = force ? undefined : missingCapabilities(ctx, ['elicitation']);
  if (refusal !== undefined) return refusal;
  const asked = await askOnce(ctx, question, AbortSignal.timeout(cancelAfterMs));
  if ('cancelled' in asked) return structured({ cancelledByServer: true });
  if ('failure' in asked) return asked.failure;
  return structured({ answers: [asked.answer] });
}

export const ELICIT_TOOL: ToolDefinition = {
  name: 'elicit',
  description:
    'Asks the user to fill in a form (form-mode elicitation) and returns what they did, one ' +
    'ElicitResult per round: { answers: [{ action, content? }] }. Needs the client capability ' +
    'elicitation (form mode) unless force is true.',
  inputSchema: {
    type: 'object',
    properties: {
      message: { type: 'string', description: 'Why the form is needed, shown to the user.' },
      requestedSchema: {
        type: 'object',
        description:
          'The flat form schema (restricted JSON Schema). Default: one required string, name.',
      },
      rounds: {
        type: 'integer',
        minimum: 1,
        maximum: 10,
        default: 1,
        description: 'How many times to ask, one after the other.',
      },
      cancelAfterMs: {
        type: 'integer',
        minimum: 0,
        maximum: 600000,
        description:
          'Legacy sessions only: withdraw the request (notifications/cancelled) if it is still ' +
          'unanswered after this many ms, and return { cancelledByServer: true }.',
      },
      shed: {
        type: 'boolean',
        default: false,
        description:
          '2026-07-28 only: answer the first attempt with input_required carrying only a ' +
          'requestState (load shedding), then ask on the retry.',
      },
      force: FORCE_PROPERTY,
    },
    required: ['message'],
  },
  run: async (args, ctx) => {
    const question = formElicitation(
      stringOr(args, 'message', ''),
      objectOr(args, 'requestedSchema', NAME_SCHEMA),
    );
    const force = flag(args, 'force');
    const cancelAfterMs = args['cancelAfterMs'];
    if (ctx.modern === undefined && typeof cancelAfterMs === 'number') {
      return askThenWithdraw(ctx, question, cancelAfterMs, force);
    }
    const rounds = numberOr(args, 'rounds', 1);
    const outcome = await ask(ctx, {
      scope: callScope('elicit', args),
      steps: Array.from({ length: rounds }, () => ({ [KEY]: question })),
      force,
      shed: flag(args, 'shed'),
    });
    if ('reply' in outcome) return outcome.reply;
    return structured({
      answers: outcome.answers.map((_step, round) => answerTo(outcome.answers, KEY, round)),
    });
  },
};
