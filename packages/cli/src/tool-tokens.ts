/**
 * `inspect --tokens`: what each tool's definition costs a model (its name, description and input
 * schema as listed, and as the adapters' `slim: true` shows them), with a real tokenizer that the
 * client loads only now: the CLI never loads one for any other command.
 */
import { slimDescription, slimSchema, type Tool, toolTokens } from '@toolwire/client';
import { UsageError } from './exit-codes.ts';

const TOKENIZERS = ['o200k', 'claude'] as const;
export type TokenizerChoice = (typeof TOKENIZERS)[number];

/** The counts `inspect` shows: per tool (full and slim) and the totals. */
export interface ToolCost {
  tokenizer: TokenizerChoice;
  total: number;
  slimTotal: number;
  tools: Array<{ name: string; tokens: number; slim: number }>;
}

/** `--tokens` alone is o200k; `--tokens claude` names the other. */
export function tokenizerChoice(value: string | boolean | undefined): TokenizerChoice | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return 'o200k';
  if ((TOKENIZERS as readonly string[]).includes(value)) return value as TokenizerChoice;
  throw new UsageError(`--tokens takes o200k or claude, got ${value}`);
}

export async function toolCost(
  tools: readonly Tool[],
  tokenizer: TokenizerChoice,
): Promise<ToolCost> {
  const full = await toolTokens(
    tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
    { tokenizer },
  );
  const slim = await toolTokens(
    tools.map((tool) => ({
      name: tool.name,
      description: tool.description === undefined ? undefined : slimDescription(tool.description),
      inputSchema: slimSchema(tool.inputSchema, tool.name),
    })),
    { tokenizer },
  );
  return {
    tokenizer,
    total: full.total,
    slimTotal: slim.total,
    tools: full.tools.map((tool, index) => ({
      name: tool.name,
      tokens: tool.tokens,
      slim: slim.tools[index]!.tokens,
    })),
  };
}
