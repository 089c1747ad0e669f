/**
 * Skills (SEP-2640) for LangChain: an index the application puts in its own system prompt, and
 * two tools, `read_skill` (a skill's SKILL.md, verified, tagged with its server) and
 * `read_resource` (a file of a skill read_skill loaded). The model gets the text; the artifact
 * is the whole reading, `allowedTools` and `nestedSkills` included, for the application to decide
 * on: nothing here grants a tool or activates a nested skill. A refusal (an ambiguous or unknown
 * name, a file the skill does not list) goes back to the model as an error ToolMessage.
 */
import { ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool } from '@langchain/core/tools';
import {
  type ListOptions,
  SkillShelf,
  type SkillShelfOptions,
  type SkillSource,
  SkillVerificationError,
} from '@toolwire/client';

export interface McpSkills {
  /** The skills as lines for a system prompt; empty when there are none. Put it there yourself. */
  index(options?: ListOptions): Promise<string>;
  /** `read_skill` and `read_resource`, artifacts `SkillReading` and `SkillResourceReading`. */
  tools: DynamicStructuredTool[];
}

type Config = { toolCall?: { id?: string }; signal?: AbortSignal } | undefined;

/** The skills of a client (or of `createMcpClients`) as a prompt index and two tools. */
export function mcpSkills(source: SkillSource, options: SkillShelfOptions = {}): McpSkills {
  const shelf = new SkillShelf(source, options);
  const readSkill = tool(
    (input: { name: string }, config: Config) =>
      answered('read_skill', config, async () => {
        const reading = await shelf.read(input.name, signalOf(config));
        const parts = [reading.text];
        if (reading.files.length > 0)
          parts.push(`Files (read_resource): ${reading.files.join(', ')}`);
        if (reading.allowedTools.length > 0) {
          parts.push(
            `The skill asks for tools (${reading.allowedTools.join(', ')}); that is for the application to grant, not granted here.`,
          );
        }
        return [parts.join('\n\n'), reading];
      }),
    {
      name: 'read_skill',
      description:
        'Reads a skill of the index: its SKILL.md instructions, from the server named. Give its name as the index writes it (server/name where two share a name).',
      schema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'the skill, as the index names it' } },
        required: ['name'],
        additionalProperties: false,
      },
      responseFormat: 'content_and_artifact',
    },
  );
  const readResource = tool(
    (input: { path: string; skill?: string }, config: Config) =>
      answered('read_resource', config, async () => {
        const reading = await shelf.readResource(input.path, input.skill, signalOf(config));
        const text =
          reading.text ??
          `[file "${reading.path}" of skill "${reading.skill}" from server "${reading.server}": ${reading.size} bytes of ${reading.mimeType ?? 'unknown type'}, not text]`;
        return [text, reading];
      }),
    {
      name: 'read_resource',
      description:
        'Reads a file of a skill read_skill gave, by its path under the skill (scripts/run.sh) or its uri.',
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'a path read_skill listed, or its uri' },
          skill: { type: 'string', description: 'whose file, where several skills have it' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      responseFormat: 'content_and_artifact',
    },
  );
  return {
    index: (listOptions) => shelf.index(listOptions),
    tools: [readSkill, readResource] as DynamicStructuredTool[],
  };
}

function signalOf(config: Config): ListOptions {
  return config?.signal ? { signal: config.signal } : {};
}

/**
 * The tool's answer; a refusal of what the model asked for is an error ToolMessage it reads and
 * corrects. Anything else (the server unreachable, the caller's abort) is thrown.
 */
async function answered(
  name: string,
  config: Config,
  work: () => Promise<[string, unknown]>,
): Promise<[string | ToolMessage, unknown]> {
  try {
    return await work();
  } catch (error) {
    const refused = error instanceof TypeError || error instanceof SkillVerificationError;
    const id = config?.toolCall?.id;
    if (!refused || id === undefined) throw error;
    const message = new ToolMessage({
      content: `${error.name}: ${error.message}`,
      tool_call_id: id,
      name,
      status: 'error',
    });
    return [message, undefined];
  }
}
