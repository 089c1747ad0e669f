/**
 * The schema case @langchain/mcp-adapters gets wrong (it flattens an anyOf of two objects into one
 * and intersects `required`): here the model sees both branches, `$ref`s inlined, and arguments
 * for either branch reach an official-SDK server exactly as the model wrote them.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createMcpClient } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';
import { ORDER_SCHEMA, startOrderServer } from './order-server.ts';

const SHIP = {
  item: { sku: 'A-1', quantity: 2 },
  delivery: { kind: 'ship', address: { street: '1 Main St', city: 'Springfield' } },
};
const PICKUP = { item: { sku: 'B-2', quantity: 1 }, delivery: { kind: 'pickup', store: 'north' } };

test('the model is shown both anyOf branches, with every $ref inlined', async () => {
  await using server = await startOrderServer();
  await using client = createMcpClient(server.url);
  const [order] = await mcpStructuredTools(client);
  const { parameters } = convertToOpenAITool(order!).function;

  expect(JSON.stringify(parameters)).not.toContain('$ref');
  const properties = (parameters as { properties: Record<string, { anyOf?: unknown[] }> })
    .properties;
  expect(properties['item']).toEqual(ORDER_SCHEMA.$defs.item);
  expect(properties['delivery']?.anyOf).toEqual([
    ORDER_SCHEMA.properties.delivery.anyOf[0],
    {
      ...ORDER_SCHEMA.properties.delivery.anyOf[1],
      properties: { kind: { const: 'ship' }, address: ORDER_SCHEMA.$defs.address },
    },
  ]);
  expect(parameters).toMatchObject({ required: ['item', 'delivery'] });
});

test('arguments for either anyOf branch reach the server intact through an agent', async () => {
  await using server = await startOrderServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client);
  const model = fakeModel()
    .respondWithTools([
      { name: 'place_order', args: SHIP, id: 'ship' },
      { name: 'place_order', args: PICKUP, id: 'pickup' },
    ])
    .respond(new AIMessage('ordered'));
  const agent = createAgent({ model, tools });

  const { messages } = await agent.invoke({ messages: [new HumanMessage('order')] });

  expect(server.received).toHaveLength(2);
  expect(server.received).toContainEqual(SHIP);
  expect(server.received).toContainEqual(PICKUP);
  const results = messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.content);
  expect(results).toContain(JSON.stringify(SHIP));
});

test('arguments that mix the two branches are refused before the call', async () => {
  await using server = await startOrderServer();
  await using client = createMcpClient(server.url);
  const [order] = await mcpStructuredTools(client);
  const mixed = { item: { sku: 'C', quantity: 1 }, delivery: { kind: 'ship', store: 'north' } };
  await expect(order!.invoke(mixed)).rejects.toThrow(/\/delivery is missing "address"/);
  await expect(order!.invoke({ ...SHIP, item: { sku: 'C', quantity: 0 } })).rejects.toThrow(
    /\/item\/quantity must be >= 1/,
  );
  expect(server.received).toEqual([]);
});
