/**
 * Which client capability each kind of question needs, and the check both eras make before
 * asking: a legacy session declared its capabilities in `initialize`, a 2026-07-28 request
 * declares them in its own `_meta`.
 */
import { errorResult } from '../content.ts';
import type { RequestContext } from '../context.ts';
import { isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { ModernCode } from '../modern/envelope.ts';
import type { Question } from './requests.ts';

/** A capability as a dotted path: `elicitation` (form mode), `elicitation.url`, `sampling.tools`, ... */
export type Capability =
  | 'elicitation'
  | 'elicitation.url'
  | 'sampling'
  | 'sampling.tools'
  | 'roots';

/** The capability the client must have declared to be sent `question`. */
export function capabilityFor(question: Question): Capability {
  const { params } = question;
  switch (question.method) {
    case 'elicitation/create':
      return params['mode'] === 'url' ? 'elicitation.url' : 'elicitation';
    case 'sampling/createMessage':
      return params['tools'] === undefined ? 'sampling' : 'sampling.tools';
    default:
      return 'roots';
  }
}

function declares(declared: JsonObject, capability: Capability): boolean {
  const elicitation = declared['elicitation'];
  const sampling = declared['sampling'];
  switch (capability) {
    case 'elicitation':
      // An empty elicitation object means form mode only; url alone means no form mode.
      return (
        isObject(elicitation) && (isObject(elicitation['form']) || elicitation['url'] === undefined)
      );
    case 'elicitation.url':
      return isObject(elicitation) && isObject(elicitation['url']);
    case 'sampling':
      return isObject(sampling);
    case 'sampling.tools':
      return isObject(sampling) && isObject(sampling['tools']);
    case 'roots':
      return isObject(declared['roots']);
  }
}

/** `{a: {b: {}}}` for `a.b`, merged over every path: the shape of `requiredCapabilities`. */
function asCapabilities(paths: readonly Capability[]): JsonObject {
  const capabilities: JsonObject = {};
  for (const path of paths) {
    let node = capabilities;
    for (const part of path.split('.')) {
      const next = isObject(node[part]) ? node[part] : {};
      node[part] = next;
      node = next;
    }
  }
  return capabilities;
}

/**
 * Checks that the caller declared everything `needed`. Legacy: returns the tool error result
 * naming what is missing (undefined when nothing is). 2026-07-28: throws -32021 with
 * `data.requiredCapabilities`, as the revision asks.
 */
export function missingCapabilities(
  ctx: RequestContext,
  needed: readonly Capability[],
): JsonObject | undefined {
  const declared = ctx.modern?.clientCapabilities ?? ctx.session?.clientCapabilities ?? {};
  const missing = [...new Set(needed)].filter((capability) => !declares(declared, capability));
  if (missing.length === 0) return undefined;
  if (ctx.modern !== undefined) {
    throw new RpcError(
      ModernCode.MissingRequiredClientCapability,
      `Missing required client capability: ${missing.join(', ')}`,
      { requiredCapabilities: asCapabilities(missing) },
    );
  }
  return errorResult(
    `the client did not declare the capability ${missing.join(', ')} ` +
      '(call with force: true to ask anyway)',
  );
}
