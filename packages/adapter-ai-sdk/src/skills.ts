/**
 * Skills (SEP-2640) for an AI SDK loop: an index the application puts in its own system prompt,
 * and two tools, `read_skill` (a skill's SKILL.md, verified, tagged with its server) and
 * `read_resource` (a file of a skill read_skill loaded). The model's output is the text; the
 * whole reading, `allowedTools` and `nestedSkills` included, stays in the tool result for the
 * application, which decides on them: nothing here grants a tool or activates a nested skill.
 */
import {
  type ListOptions,
  type SkillReading,
  type SkillResourceReading,
  SkillShelf,
  type SkillShelfOptions,
  type SkillSource,
} from '@toolwire/client';
import { jsonSchema, type Tool, tool } from 'ai';

export interface McpSkills {
  /** The skills as lines for a system prompt; empty when there are none. Put it there yourself. */
  index(options?: ListOptions): Promise<string>;
  tools: {
    read_skill: Tool<{ name: string }, SkillReading>;
    read_resource: Tool<{ path: string; skill?: string }, SkillResourceReading>;
  };
}

/** The skills of a client (or of `createMcpClients`) as a prompt index and two tools. */
export function mcpSkills(source: SkillSource, options: SkillShelfOptions = {}): McpSkills {
  const shelf = new SkillShelf(source, options);
  return {
    index: (listOptions) => shelf.index(listOptions),
    tools: {
      read_skill: tool({
        description:
          'Reads a skill of the index: its SKILL.md instructions, from the server named. Give its name as the index writes it (server/name where two share a name).',
        inputSchema: jsonSchema<{ name: string }>({
          type: 'object',
          properties: { name: { type: 'string', description: 'the skill, as the index names it' } },
          required: ['name'],
          additionalProperties: false,
        }),
        execute: ({ name }, { abortSignal }) => shelf.read(name, signalOf(abortSignal)),
        toModelOutput: ({ output }) => ({ type: 'text', value: skillText(output) }),
      }),
      read_resource: tool({
        description:
          'Reads a file of a skill read_skill gave, by its path under the skill (scripts/run.sh) or its uri.',
        inputSchema: jsonSchema<{ path: string; skill?: string }>({
          type: 'object',
          properties: {
            path: { type: 'string', description: 'a path read_skill listed, or its uri' },
            skill: { type: 'string', description: 'whose file, where several skills have it' },
          },
          required: ['path'],
          additionalProperties: false,
        }),
        execute: ({ path, skill }, { abortSignal }) =>
          shelf.readResource(path, skill, signalOf(abortSignal)),
        toModelOutput: ({ output }) => ({
          type: 'text',
          value:
            output.text ??
            `[file "${output.path}" of skill "${output.skill}" from server "${output.server}": ${output.size} bytes of ${output.mimeType ?? 'unknown type'}, not text]`,
        }),
      }),
    },
  };
}

function signalOf(signal: AbortSignal | undefined): ListOptions {
  return signal ? { signal } : {};
}

/** SKILL.md, then what the model may read next and what the skill asks for (granted by no one here). */
function skillText(reading: SkillReading): string {
  const parts = [reading.text];
  if (reading.files.length > 0) parts.push(`Files (read_resource): ${reading.files.join(', ')}`);
  if (reading.allowedTools.length > 0) {
    parts.push(
      `The skill asks for tools (${reading.allowedTools.join(', ')}); that is for the application to grant, not granted here.`,
    );
  }
  return parts.join('\n\n');
}
