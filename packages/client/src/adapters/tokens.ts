/**
 * What tool definitions cost a model, counted with a real tokenizer: each definition as the
 * adapter hands it to the provider (name, description, input schema), per tool, per server, and
 * in all. Providers wrap definitions in their own few framing tokens; those are not counted.
 */
import { loadTokenizer, type TokenCounter, type TokenizerName } from './tokenizers.ts';

/** One tool as a model is shown it. `server` groups the counts (several servers in one set). */
export interface ModelToolDefinition {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
  server?: string | undefined;
}

export interface ToolTokensOptions {
  /** `'o200k'` (js-tiktoken), `'claude'` (@anthropic-ai/tokenizer), or your own counter. @default 'o200k' */
  tokenizer?: TokenizerName | TokenCounter;
}

/** The counts: each tool's, each server's sum, and the total. */
export interface ToolTokens {
  tools: Array<{ name: string; server?: string; tokens: number }>;
  servers: Record<string, number>;
  total: number;
}

/**
 * The tokens each definition costs: the JSON a provider is sent for it,
 * `{"name":…,"description":…,"input_schema":…}`, counted by `tokenizer`.
 */
export async function toolTokens(
  tools: readonly ModelToolDefinition[],
  options: ToolTokensOptions = {},
): Promise<ToolTokens> {
  const { tokenizer = 'o200k' } = options;
  const count: TokenCounter =
    typeof tokenizer === 'function' ? tokenizer : await loadTokenizer(tokenizer);
  const counted: ToolTokens = { tools: [], servers: {}, total: 0 };
  for (const tool of tools) {
    const tokens = count(
      JSON.stringify({
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        input_schema: tool.inputSchema,
      }),
    );
    counted.tools.push({
      name: tool.name,
      ...(tool.server ? { server: tool.server } : {}),
      tokens,
    });
    if (tool.server !== undefined) {
      // A server's name is the server's choice: an own property, never the prototype's.
      const before = Object.hasOwn(counted.servers, tool.server)
        ? counted.servers[tool.server]!
        : 0;
      Object.defineProperty(counted.servers, tool.server, {
        value: before + tokens,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    counted.total += tokens;
  }
  return counted;
}
