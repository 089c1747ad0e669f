/** What the legacy revisions share whatever their transport (Streamable HTTP or HTTP+SSE). */
import type { JsonObject } from '../core/jsonrpc.ts';
import type { Tool } from '../core/types.ts';
import type { Operation } from './dialect.ts';

export const legacyEra = {
  /** Every operation is a request in this era. */
  adapt: async (operation: Operation): Promise<Operation> => operation,
  /** `x-mcp-header` belongs to a later revision: nothing to screen. */
  screenTools: (tools: Tool[]): Tool[] => tools,
  /**
   * These revisions give no freshness hints: a tool list stays good until the server says it
   * changed (list_changed); anything else is asked for again.
   */
  freshFor: (_result: JsonObject, method: string): number =>
    method === 'tools/list' ? Number.POSITIVE_INFINITY : 0,
};
