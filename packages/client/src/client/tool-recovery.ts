/**
 * A tool call that recovers from what a cached listing can get wrong: the tool's definition
 * changed (the headers a 2026-07-28 server mirrors no longer match: look again and call once
 * more), or the tool is gone (the server says the call is invalid: look again and call it
 * unknown, naming what there is).
 */
import {
  type ErrorContext,
  HeaderMismatchError,
  JsonRpcError,
  ToolNotFoundError,
} from '../core/errors.ts';
import type { Tool } from '../core/types.ts';
import { RpcCode } from '../core/wire-codes.ts';

/** How a call reaches the server, and how it looks at the listing again. */
export interface ToolCalling<T> {
  /** Calls the tool with the definition at hand (undefined: the listing does not name it). */
  call(tool: Tool | undefined): Promise<T>;
  /** The listing; `refresh` asks the server again. */
  list(refresh: boolean): Promise<Tool[]>;
}

/**
 * The first call, made with the definition at hand (`known`), failed with `error`: the answer of
 * a call made again with the definition looked up afresh, and that definition (its output schema
 * checks the result); or the error, or a ToolNotFoundError, when looking again does not help.
 */
export async function recoverCall<T>(
  error: unknown,
  name: string,
  known: Tool | undefined,
  calling: ToolCalling<T>,
  context: ErrorContext,
): Promise<{ answer: T; tool: Tool | undefined }> {
  if (error instanceof HeaderMismatchError && known) {
    // The headers mirror the tool's schema; a mismatch means the schema changed. Look again, once.
    const tool = (await calling.list(true)).find((t) => t.name === name);
    return { answer: await calling.call(tool), tool };
  }
  if (error instanceof JsonRpcError && !known) {
    const available = (await calling.list(false)).map((t) => t.name);
    throw new ToolNotFoundError(available, { ...context, cause: error });
  }
  if (error instanceof JsonRpcError && error.rpcCode === RpcCode.invalidParams) {
    // A cached listing can name a tool the server has just dropped, before its notice
    // arrives: look again, and call it unknown if it is gone.
    const fresh = await calling.list(true);
    if (fresh.some((t) => t.name === name)) throw error;
    throw new ToolNotFoundError(
      fresh.map((t) => t.name),
      { ...context, cause: error },
    );
  }
  throw error;
}
