import { CONFORMANCE_PROMPTS } from './conformance/prompts.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from './jsonrpc.ts';
import { pageResult, paginate } from './pagination.ts';
import type { FixtureState } from './state.ts';

/** The styles the `greet` prompt knows; also its completion values. */
export const GREET_STYLES = ['formal', 'casual', 'pirate'] as const;

interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

/** A fixture prompt: its descriptor and the messages it expands to. */
export interface PromptDefinition {
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** Builds the messages; required arguments are already checked to be present strings. */
  messages(args: Readonly<Record<string, string>>): JsonObject[];
}

/** The one-message prompt every regular fixture expands to. */
function userText(text: string): JsonObject[] {
  return [{ role: 'user', content: { type: 'text', text } }];
}

function greeting(name: string, style: string | undefined): string {
  switch (style) {
    case undefined:
      return `Say hello to ${name}.`;
    case 'formal':
      return `Write a formal greeting for ${name}.`;
    case 'casual':
      return `Write a casual, friendly greeting for ${name}.`;
    case 'pirate':
      return `Greet ${name} the way a pirate would.`;
    default:
      throw new RpcError(
        ErrorCode.InvalidParams,
        `style must be one of ${GREET_STYLES.join(', ')}; got ${style}`,
      );
  }
}

const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'greet',
    description: 'Asks for a greeting for someone, in an optional style.',
    arguments: [
      { name: 'name', description: 'Who to greet.', required: true },
      { name: 'style', description: `One of ${GREET_STYLES.join(', ')}.`, required: false },
    ],
    messages: (args) => userText(greeting(args['name'] ?? '', args['style'])),
  },
  {
    name: 'summarize',
    description: 'Asks for a summary of a text.',
    arguments: [{ name: 'text', description: 'The text to summarize.', required: true }],
    messages: (args) =>
      userText(`Summarize the following text in one sentence:\n\n${args['text'] ?? ''}`),
  },
];

/** The prompts a legacy session sees (2026-07-28 adds a few, see modern/prompts.ts). */
export function currentPrompts(fixtures: FixtureState): readonly PromptDefinition[] {
  return fixtures.conformance ? [...PROMPTS, ...CONFORMANCE_PROMPTS] : PROMPTS;
}

/** Finds a prompt by name; unknown names are -32602, as the spec asks. */
export function findPrompt(name: unknown, fixtures: FixtureState): PromptDefinition {
  const prompt = currentPrompts(fixtures).find((candidate) => candidate.name === name);
  if (prompt === undefined)
    throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(name)}`);
  return prompt;
}

/** `prompts/list`. */
export function listPrompts(params: JsonObject, fixtures: FixtureState): JsonObject {
  const prompts = currentPrompts(fixtures).map(({ name, description, arguments: args }) => ({
    name,
    description,
    arguments: args.map((argument) => ({ ...argument })),
  }));
  return pageResult('prompts', paginate('prompts', prompts, params, fixtures.pageSize));
}

/** `prompts/get`: the prompt's messages; a missing required argument is -32602. */
export function getPrompt(params: JsonObject, fixtures: FixtureState): JsonObject {
  const prompt = findPrompt(params['name'], fixtures);
  const given = params['arguments'] ?? {};
  if (!isObject(given)) throw new RpcError(ErrorCode.InvalidParams, 'arguments must be an object');
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== 'string') {
      throw new RpcError(ErrorCode.InvalidParams, `argument ${key} must be a string`);
    }
    args[key] = value;
  }
  for (const argument of prompt.arguments) {
    if (argument.required && args[argument.name] === undefined) {
      throw new RpcError(ErrorCode.InvalidParams, `Missing required argument: ${argument.name}`);
    }
  }
  return {
    description: prompt.description,
    messages: prompt.messages(args),
  };
}
