/**
 * Every dialect the client speaks, one line each: its folder's descriptor. A new dialect is a
 * folder with a `descriptor.ts` and a line here; negotiation, the connection and the options read
 * everything else from the descriptors (`registered.ts`). Lines are kept in alphabetical order,
 * the order a module's exports are listed in, and so `DIALECTS` too.
 */
export { descriptor as mcpLite } from './mcp-lite/descriptor.ts';
export { descriptor as mcpSse } from './mcp-sse/descriptor.ts';
export { descriptor as mcpStateful } from './mcp-stateful/descriptor.ts';
export { descriptor as mcpStateless } from './mcp-stateless/descriptor.ts';
export { descriptor as webtools } from './webtools/descriptor.ts';
