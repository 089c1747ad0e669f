import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../index.ts';
import { messagesOf, type RpcMessage, rpc, TestClient } from '../testing/client.ts';
import { SseReader } from '../testing/sse.ts';

/**
 * Calls `tool`, waits for the request it sends the client on the call's stream, answers it with
 * `answer`, and returns that request and the call's response.
 */
async function answerToolRequest(
  client: TestClient,
  tool: string,
  args: Record<string, unknown>,
  answer: Record<string, unknown>,
): Promise<{ request: RpcMessage | undefined; response: RpcMessage | undefined }> {
  const http = await client.post(rpc(30, 'tools/call', { name: tool, arguments: args }));
  const reader = new SseReader(http.body);
  const events = await reader.readUntil((event) => event.data.includes('"method"'));
  const request = messagesOf(events).at(-1);
  const ack = await client.post({ jsonrpc: '2.0', id: request?.id, ...answer });
  expect(ack.status).toBe(202);
  const response = messagesOf((await reader.readAll()).events).find((message) => message.id === 30);
  return { request, response };
}

describe('conformance tools that ask the client', () => {
  it('test_sampling sends sampling/createMessage with the prompt and returns the answer', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url, { capabilities: { sampling: {} } });
    const { request, response } = await answerToolRequest(
      client,
      'test_sampling',
      { prompt: 'Say hi' },
      {
        result: {
          role: 'assistant',
          content: { type: 'text', text: 'hi' },
          model: 'test-model',
          stopReason: 'endTurn',
        },
      },
    );
    expect(request).toMatchObject({
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
        maxTokens: 100,
      },
    });
    expect(response?.result).toEqual({ content: [{ type: 'text', text: 'LLM response: hi' }] });
  });

  it('test_elicitation asks for a username and an email and reports the user’s action', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const content = { username: 'ada', email: 'ada@example.com' };
    const { request, response } = await answerToolRequest(
      client,
      'test_elicitation',
      { message: 'Who are you?' },
      { result: { action: 'accept', content } },
    );
    expect(request).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Who are you?', requestedSchema: { required: ['username', 'email'] } },
    });
    expect(response?.result).toEqual({
      content: [
        { type: 'text', text: `User response: action=accept, content=${JSON.stringify(content)}` },
      ],
    });
  });

  it('test_elicitation_sep1034_defaults gives every primitive field a default', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const { request } = await answerToolRequest(
      client,
      'test_elicitation_sep1034_defaults',
      {},
      {
        result: { action: 'decline' },
      },
    );
    const properties = request?.params?.['requestedSchema'] as {
      properties: Record<string, { type: string; default: unknown }>;
    };
    expect(
      Object.values(properties.properties).map((field) => [field.type, field.default]),
    ).toEqual([
      ['string', 'John Doe'],
      ['integer', 30],
      ['number', 95.5],
      ['string', 'active'],
      ['boolean', true],
    ]);
  });

  it('test_elicitation_sep1330_enums asks with all five enum schema variants', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const { request, response } = await answerToolRequest(
      client,
      'test_elicitation_sep1330_enums',
      {},
      { result: { action: 'cancel' } },
    );
    const schema = request?.params?.['requestedSchema'] as { properties: object };
    expect(Object.keys(schema.properties)).toEqual([
      'untitledSingle',
      'titledSingle',
      'legacyEnum',
      'untitledMulti',
      'titledMulti',
    ]);
    expect(response?.result).toEqual({
      content: [{ type: 'text', text: 'Elicitation completed: action=cancel, content={}' }],
    });
  });

  it('refuse, as a tool error, to ask a client that did not declare the capability', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const sampling = await client.callTool('test_sampling', { prompt: 'x' });
    expect(sampling.isError).toBe(true);
    const elicitation = await client.callTool('test_elicitation', { message: 'x' });
    expect(elicitation.isError).toBe(true);
  });

  it('report the client’s JSON-RPC error answer as a tool error', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url, { capabilities: { sampling: {} } });
    const { response } = await answerToolRequest(
      client,
      'test_sampling',
      { prompt: 'x' },
      { error: { code: -32601, message: 'no sampling here' } },
    );
    expect(response?.result).toMatchObject({ isError: true });
  });
});
