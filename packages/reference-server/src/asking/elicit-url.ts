/**
 * `elicit_url`: URL-mode elicitation. Legacy sessions learn of completion from
 * `notifications/elicitation/complete`, and `required: true` answers with the -32042
 * URLElicitationRequired error instead of asking; 2026-07-28 clients learn it by retrying.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorResult } from '../content.ts';
import type { RequestContext } from '../context.ts';
import { type JsonObject, notificationMessage, RpcError } from '../jsonrpc.ts';
import { signState, verifiedState } from '../modern/mrtr.ts';
import type { Session } from '../session.ts';
import type { ToolDefinition } from '../tools.ts';
import { FORCE_PROPERTY, flag, numberOr, stringOr } from './args.ts';
import { structured } from './ask.ts';
import { missingCapabilities } from './capabilities.ts';
import { askOnce } from './legacy.ts';
import { checkedResponse, inputRequired } from './modern.ts';
import { urlElicitation } from './requests.ts';
import { callScope } from './scope.ts';

/** The 2025-11-25 error code of a request that needs a URL elicitation completed first. */
export const URL_ELICITATION_REQUIRED = -32042;

const KEY = 'link';

/** What elicit_url asks: where to send the user, and when the interaction counts as done. */
interface Link {
  readonly url: string;
  readonly message: string;
  readonly completeAfterMs: number;
}

/** The URL elicitation a legacy session was told is required (-32042), per session. */
interface RequiredElicitation {
  readonly elicitationId: string;
  completed: boolean;
}

/** Keyed by the session object, so an ended session takes its entry with it. */
const requiredBySession = new WeakMap<Session, RequiredElicitation>();

function announceCompletion(ctx: RequestContext, elicitationId: string): void {
  ctx.sendUnrelated(notificationMessage('notifications/elicitation/complete', { elicitationId }));
}

/** Legacy, `required: false`: asks, and on accept announces completion after the delay. */
async function askLegacy(ctx: RequestContext, link: Link): Promise<JsonObject> {
  const elicitationId = randomUUID();
  const asked = await askOnce(ctx, urlElicitation(elicitationId, link.url, link.message));
  if (!('answer' in asked)) return 'failure' in asked ? asked.failure : errorResult('withdrawn');
  const action = asked.answer['action'];
  if (action !== 'accept') return structured({ action });
  await sleep(link.completeAfterMs, undefined, { signal: ctx.signal });
  announceCompletion(ctx, elicitationId);
  return structured({ action, elicitationId });
}

/**
 * Legacy, `required: true`: -32042 naming the elicitation until it has completed (which it does
 * `completeAfterMs` after the first such error), then `{ completed, elicitationId }`.
 */
function requireLegacy(ctx: RequestContext, link: Link): JsonObject {
  const { session } = ctx;
  if (session === undefined) {
    return errorResult('required: true needs a session: call elicit_url on a stateful endpoint');
  }
  const known = requiredBySession.get(session);
  if (known?.completed === true) {
    return structured({ completed: true, elicitationId: known.elicitationId });
  }
  const pending = known ?? { elicitationId: randomUUID(), completed: false };
  if (known === undefined) {
    requiredBySession.set(session, pending);
    // Stands in for the user finishing in their browser; close() aborts the wait.
    sleep(link.completeAfterMs, undefined, { signal: ctx.signal }).then(
      () => {
        pending.completed = true;
        announceCompletion(ctx, pending.elicitationId);
      },
      () => undefined,
    );
  }
  const { elicitationId } = pending;
  throw new RpcError(
    URL_ELICITATION_REQUIRED,
    'This request requires more information: the user must complete a URL elicitation first',
    { elicitations: [{ ...urlElicitation(elicitationId, link.url, link.message).params }] },
  );
}

/**
 * 2026-07-28: asks in `input_required`; an `accept` before `completeAfterMs` has passed since
 * the first ask is asked again (same key, same elicitationId, fresh state).
 */
function askModern(ctx: RequestContext, scope: string, link: Link): JsonObject {
  const state = verifiedState(ctx, scope);
  const response = checkedResponse(ctx, KEY, 'elicitation/create');
  const elicitationId =
    typeof state?.['elicitationId'] === 'string' ? state['elicitationId'] : randomUUID();
  const askedAt = typeof state?.['askedAt'] === 'number' ? state['askedAt'] : Date.now();
  const attempt = typeof state?.['attempt'] === 'number' ? state['attempt'] + 1 : 1;
  const askAgain = () =>
    inputRequired(
      { [KEY]: urlElicitation(elicitationId, link.url, link.message) },
      // The attempt number makes every state new, even within one millisecond.
      signState(ctx, scope, { elicitationId, askedAt, attempt }),
    );
  // An answer only counts with the state it was asked under.
  if (state === undefined || response === undefined) return askAgain();
  const action = response['action'];
  if (action !== 'accept') return structured({ action });
  if (Date.now() - askedAt < link.completeAfterMs) return askAgain();
  return structured({ action, completed: true, elicitationId });
}

export const ELICIT_URL_TOOL: ToolDefinition = {
  name: 'elicit_url',
  description:
    'Sends the user to a URL (URL-mode elicitation) and reports the outcome: { action } on ' +
    'decline or cancel. Legacy sessions: on accept, notifications/elicitation/complete follows ' +
    'after completeAfterMs and the result is { action, elicitationId }; with required, the call ' +
    'fails with -32042 until that time has passed, then returns { completed: true, ' +
    'elicitationId }. 2026-07-28: an accepting retry before completeAfterMs is asked again, ' +
    'later ones get { action: "accept", completed: true }. Needs the client capability ' +
    'elicitation.url unless force is true.',
  inputSchema: {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        default: 'https://example.com/connect',
        description: 'Where to send the user.',
      },
      message: {
        type: 'string',
        default: 'Connect your account',
        description: 'Why, shown to the user.',
      },
      completeAfterMs: {
        type: 'integer',
        minimum: 0,
        maximum: 600000,
        default: 0,
        description: 'When the out-of-band interaction counts as complete.',
      },
      required: {
        type: 'boolean',
        default: false,
        description: 'Legacy sessions only: answer with the -32042 error instead of asking.',
      },
      force: FORCE_PROPERTY,
    },
  },
  run: async (args, ctx) => {
    const link: Link = {
      url: stringOr(args, 'url', 'https://example.com/connect'),
      message: stringOr(args, 'message', 'Connect your account'),
      completeAfterMs: numberOr(args, 'completeAfterMs', 0),
    };
    if (!flag(args, 'force')) {
      const refusal = missingCapabilities(ctx, ['elicitation.url']);
      if (refusal !== undefined) return refusal;
    }
    if (ctx.modern !== undefined) return askModern(ctx, callScope('elicit_url', args), link);
    return flag(args, 'required') ? requireLegacy(ctx, link) : askLegacy(ctx, link);
  },
};
