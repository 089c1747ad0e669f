/**
 * The prompts the MCP conformance suite's server scenarios get by name (prompts-get-*,
 * completion-complete), with the messages their "Server Implementation Requirements" give.
 */
import type { JsonObject } from '../jsonrpc.ts';
import { PNG_BASE64 } from '../media.ts';
import type { PromptDefinition } from '../prompts.ts';

function user(content: JsonObject): JsonObject {
  return { role: 'user', content };
}

function text(value: string): JsonObject {
  return { type: 'text', text: value };
}

export const CONFORMANCE_PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'test_simple_prompt',
    description: 'A prompt without arguments.',
    arguments: [],
    messages: () => [user(text('This is a simple prompt for testing.'))],
  },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt whose text carries its two arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    messages: (args) => [
      user(text(`Prompt with arguments: arg1='${args['arg1']}', arg2='${args['arg2']}'`)),
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds the resource named by its argument.',
    arguments: [
      { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
    ],
    messages: (args) => [
      user({
        type: 'resource',
        resource: {
          uri: args['resourceUri'],
          mimeType: 'text/plain',
          text: 'Embedded resource content for testing.',
        },
      }),
      user(text('Please process the embedded resource above.')),
    ],
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt with an image (a 1x1 PNG) and a question about it.',
    arguments: [],
    messages: () => [
      user({ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }),
      user(text('Please analyze the image above.')),
    ],
  },
];
