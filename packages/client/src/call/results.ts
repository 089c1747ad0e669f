/**
 * What a tool call returns, made safe to hand on: the content checked for shape, `isError`
 * defaulted, `structuredContent` validated against the tool's `outputSchema` (never when the
 * call failed). The schema is compiled once and kept (core/schema.ts).
 */
import { type ErrorContext, MalformedMessageError, OutputValidationError } from '../core/errors.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import { schemaProblems } from '../core/schema.ts';
import type { CallToolResult, JsonSchema } from '../core/types.ts';

export function toCallToolResult(raw: JsonObject, context: ErrorContext): CallToolResult {
  const content = raw['content'] ?? [];
  if (!Array.isArray(content) || !content.every(isTypedBlock)) {
    throw new MalformedMessageError('tool result content is not an array of typed blocks', {
      ...context,
      bodyExcerpt: JSON.stringify(raw).slice(0, 200),
    });
  }
  // Spread first: fields a newer server adds survive; the ones we rely on are normalised.
  return { ...raw, content, isError: raw['isError'] === true } as CallToolResult;
}

function isTypedBlock(item: unknown): boolean {
  return isObject(item) && typeof item['type'] === 'string';
}

/** Throws OutputValidationError when a successful result does not match `outputSchema`. */
export function checkStructuredContent(
  result: CallToolResult,
  outputSchema: JsonSchema | undefined,
  context: ErrorContext,
): void {
  if (!outputSchema || result.isError) return;
  if (!('structuredContent' in result) || result.structuredContent === undefined) {
    throw new OutputValidationError(
      result,
      ['the tool declares an outputSchema but sent no structuredContent'],
      context,
    );
  }
  let problems: string[];
  try {
    problems = schemaProblems(outputSchema, result.structuredContent);
  } catch (error) {
    throw new OutputValidationError(
      result,
      [`outputSchema cannot be used: ${(error as Error).message}`],
      { ...context, cause: error },
    );
  }
  if (problems.length > 0) throw new OutputValidationError(result, problems, context);
}
