/**
 * The MCP-lite binding (seed 000) asks with a result whose `response_type` is `elicitation`: the
 * same `onElicitation` handler answers it, and the accepted fields go back as the same call with
 * those arguments, the only answer a stateless MCP-lite server understands.
 */
import { createMcpClient, type ElicitationRequest } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';

async function lite(onElicitation: (request: ElicitationRequest) => unknown) {
  const server = await startReferenceServer();
  const client = createMcpClient(server.urls.mcpLite, {
    dialect: 'mcp-lite',
    onElicitation: onElicitation as never,
  });
  return {
    server,
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

/** The arguments of every tools/call the MCP-lite endpoint received. */
function calledWith(server: Awaited<ReturnType<typeof lite>>['server']): unknown[] {
  return server.log
    .map((entry) => entry.body as { method?: string; params?: { arguments?: unknown } })
    .filter((body) => body?.method === 'tools/call')
    .map((body) => body.params?.arguments);
}

test('an accepted elicitation is sent back as the same call with the answered fields', async () => {
  const seen: ElicitationRequest[] = [];
  await using it = await lite((request) => {
    seen.push(request);
    return { action: 'accept', content: { party_size: 4 } };
  });
  const booked = await it.client.callTool('book_table', { restaurant: 'Chez Ada' });
  expect(booked.content).toEqual([{ type: 'text', text: 'Booked Chez Ada for 4.' }]);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ mode: 'form', requestedSchema: { type: 'object' } });
  expect(calledWith(it.server)).toEqual([
    { restaurant: 'Chez Ada' },
    { restaurant: 'Chez Ada', party_size: 4 },
  ]);
});

test('a declined elicitation ends the call as a tool failure, with nothing sent again', async () => {
  await using it = await lite(() => ({ action: 'decline' }));
  const result = await it.client.callTool('book_table', { restaurant: 'Chez Ada' });
  expect(result.isError).toBe(true);
  expect(calledWith(it.server)).toEqual([{ restaurant: 'Chez Ada' }]);
});
