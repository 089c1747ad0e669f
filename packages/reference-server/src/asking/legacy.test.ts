/**
 * The asking tools in a legacy session (2025-11-25 unless said otherwise), driven over raw HTTP:
 * the test plays the client, reading each server request off the call's SSE stream and
 * answering it by POST, as the 2025-11-25 transport and client/*.mdx describe.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../index.ts';
import { CallStream } from '../testing/call-stream.ts';
import {
  firstText,
  messagesOf,
  type RpcMessage,
  TestClient,
  type ToolResult,
} from '../testing/client.ts';

const ADA = { action: 'accept', content: { name: 'Ada' } };
const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'hi' },
  model: 'test-model',
  stopReason: 'endTurn',
};
const ROOTS = { roots: [{ uri: 'file:///home/ada/project', name: 'project' }] };

function toolResult(response: RpcMessage): ToolResult {
  return response.result as unknown as ToolResult;
}

/** A tool result must carry its structuredContent as its one text item too. */
function expectStructured(result: ToolResult, expected: Record<string, unknown>): void {
  expect(result.isError).toBeUndefined();
  expect(result.structuredContent).toEqual(expected);
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(expected) }]);
}

describe('elicit in a legacy session', () => {
  it('sends a form elicitation/create on the call stream and returns the answer', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const call = await CallStream.start(client, 'elicit', { message: 'Who are you?' });
    const request = await call.nextRequest();
    expect(request).toMatchObject({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Who are you?',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string', title: 'Name' } },
          required: ['name'],
        },
      },
    });
    await call.answer(request, { result: ADA });
    expectStructured(toolResult(await call.response()), { answers: [ADA] });
  });

  it('asks `rounds` times, each with a new request id, and keeps the answers in order', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const call = await CallStream.start(client, 'elicit', {
      message: 'Sure?',
      requestedSchema: schema,
      rounds: 3,
    });
    const answers = [{ action: 'decline' }, { action: 'accept', content: { ok: true } }, ADA];
    const ids = new Set<unknown>();
    for (const answer of answers) {
      const request = await call.nextRequest();
      expect(request.params).toMatchObject({ requestedSchema: schema });
      ids.add(request.id);
      await call.answer(request, { result: answer });
    }
    expect(ids.size).toBe(3);
    expectStructured(toolResult(await call.response()), { answers });
  });

  it('leaves out mode for a 2025-06-18 session, which knows only form elicitation', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, {
      version: '2025-06-18',
      capabilities: { elicitation: {} },
    });
    const call = await CallStream.start(client, 'elicit', { message: 'Name?' });
    const request = await call.nextRequest();
    expect(request.params).not.toHaveProperty('mode');
    await call.answer(request, { result: ADA });
    expectStructured(toolResult(await call.response()), { answers: [ADA] });
  });

  it('refuses, as a tool error naming the capability, a client that did not declare it', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, {
      capabilities: { elicitation: { url: {} } },
    });
    const result = await client.callTool('elicit', { message: 'x' });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('elicitation');
  });

  it('asks anyway with force: true', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const call = await CallStream.start(client, 'elicit', { message: 'x', force: true });
    const request = await call.nextRequest();
    expect(request.method).toBe('elicitation/create');
    await call.answer(request, { error: { code: -32601, message: 'Method not found' } });
    const result = toolResult(await call.response());
    expect(result.isError).toBe(true);
  });

  it('reports the client’s JSON-RPC error as a tool error with its message and code', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const call = await CallStream.start(client, 'elicit', { message: 'x' });
    await call.answer(await call.nextRequest(), {
      error: { code: -32602, message: 'no handler for elicitation' },
    });
    const result = toolResult(await call.response());
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('no handler for elicitation');
    expect(firstText(result)).toContain('-32602');
  });

  it('withdraws its own request after cancelAfterMs with notifications/cancelled', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const call = await CallStream.start(client, 'elicit', { message: 'x', cancelAfterMs: 20 });
    const request = await call.nextRequest();
    const cancelled = await call.until((message) => message.method === 'notifications/cancelled');
    expect(cancelled.params).toMatchObject({ requestId: request.id });
    expectStructured(toolResult(await call.response()), { cancelledByServer: true });
  });
});

describe('sample in a legacy session', () => {
  it('sends sampling/createMessage with the prompt and returns the CreateMessageResult', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { sampling: {} } });
    const call = await CallStream.start(client, 'sample', { prompt: 'Say hi', maxTokens: 20 });
    const request = await call.nextRequest();
    expect(request).toMatchObject({
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
        maxTokens: 20,
      },
    });
    expect(request.params).not.toHaveProperty('tools');
    await call.answer(request, { result: SAMPLED });
    expectStructured(toolResult(await call.response()), SAMPLED);
  });

  it('offers get_weather with toolChoice auto when withTools, only to a sampling.tools client', async () => {
    await using server = await startReferenceServer();
    const plain = await TestClient.connect(server.url, { capabilities: { sampling: {} } });
    const refused = await plain.callTool('sample', { prompt: 'Weather?', withTools: true });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain('sampling.tools');

    const client = await TestClient.connect(server.url, {
      capabilities: { sampling: { tools: {} } },
    });
    const call = await CallStream.start(client, 'sample', { prompt: 'Weather?', withTools: true });
    const request = await call.nextRequest();
    expect(request.params).toMatchObject({
      maxTokens: 100,
      tools: [
        {
          name: 'get_weather',
          inputSchema: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
        },
      ],
      toolChoice: { mode: 'auto' },
    });
    const toolUse = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } }],
      model: 'test-model',
      stopReason: 'toolUse',
    };
    await call.answer(request, { result: toolUse });
    expectStructured(toolResult(await call.response()), toolUse);
  });
});

describe('list_roots in a legacy session', () => {
  it('sends roots/list and returns the roots as received', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { roots: {} } });
    const call = await CallStream.start(client, 'list_roots');
    const request = await call.nextRequest();
    expect(request.method).toBe('roots/list');
    await call.answer(request, { result: ROOTS });
    expectStructured(toolResult(await call.response()), ROOTS);
  });

  it('refuses without the roots capability, and asks with force', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { sampling: {} } });
    const refused = await client.callTool('list_roots');
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain('roots');
    const call = await CallStream.start(client, 'list_roots', { force: true });
    await call.answer(await call.nextRequest(), { result: ROOTS });
    expectStructured(toolResult(await call.response()), ROOTS);
  });
});

describe('survey in a legacy session', () => {
  const ALL = { elicitation: {}, sampling: {}, roots: {} };

  it('has all three requests in flight before any is answered, and returns the three answers', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: ALL });
    const call = await CallStream.start(client, 'survey');
    // Nothing is answered until all three have arrived.
    const requests = [await call.nextRequest(), await call.nextRequest(), await call.nextRequest()];
    const byMethod = new Map(requests.map((request) => [request.method, request]));
    expect([...byMethod.keys()].sort()).toEqual([
      'elicitation/create',
      'roots/list',
      'sampling/createMessage',
    ]);
    expect(byMethod.get('sampling/createMessage')?.params).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
    });
    const answers = new Map<string | undefined, unknown>([
      ['roots/list', ROOTS],
      ['sampling/createMessage', SAMPLED],
      ['elicitation/create', ADA],
    ]);
    for (const [method, result] of answers) {
      const request = byMethod.get(method);
      if (request !== undefined) await call.answer(request, { result });
    }
    expectStructured(toolResult(await call.response()), {
      elicitation: ADA,
      sampling: SAMPLED,
      roots: ROOTS,
    });
  });

  it('names every missing capability', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const result = await client.callTool('survey');
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('sampling, roots');
  });
});

describe('elicit_url in a legacy session', () => {
  const URL_CAPABLE = { elicitation: { form: {}, url: {} } };

  it('on accept, announces completion on the GET stream and returns the elicitationId', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: URL_CAPABLE });
    const { reader } = await client.get();
    const call = await CallStream.start(client, 'elicit_url', {
      url: 'https://example.com/pay',
      message: 'Pay here',
    });
    const request = await call.nextRequest();
    expect(request).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'url', url: 'https://example.com/pay', message: 'Pay here' },
    });
    const elicitationId = request.params?.['elicitationId'];
    expect(elicitationId).toMatch(/^[0-9a-f-]{36}$/);
    await call.answer(request, { result: { action: 'accept' } });
    const events = await reader.readUntil((event) => event.data.includes('elicitation/complete'));
    expect(messagesOf(events).at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/elicitation/complete',
      params: { elicitationId },
    });
    expectStructured(toolResult(await call.response()), { action: 'accept', elicitationId });
    await reader.cancel();
  });

  it('returns only the action on decline', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: URL_CAPABLE });
    const call = await CallStream.start(client, 'elicit_url');
    const request = await call.nextRequest();
    expect(request.params).toMatchObject({
      url: 'https://example.com/connect',
      message: 'Connect your account',
    });
    await call.answer(request, { result: { action: 'decline' } });
    expectStructured(toolResult(await call.response()), { action: 'decline' });
    expect(call.seen.some((message) => message.method?.includes('complete'))).toBe(false);
  });

  it('needs elicitation.url: form-only elicitation is not enough', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: { elicitation: {} } });
    const result = await client.callTool('elicit_url');
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('elicitation.url');
  });

  it('with required, answers -32042 with the same elicitation until it completes', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: URL_CAPABLE });
    const args = { required: true, completeAfterMs: 600_000 };
    const first = await client.request('tools/call', { name: 'elicit_url', arguments: args });
    expect(first.response?.error).toMatchObject({
      code: -32042,
      data: {
        elicitations: [
          { mode: 'url', url: 'https://example.com/connect', message: 'Connect your account' },
        ],
      },
    });
    const data = first.response?.error?.data as { elicitations: Array<Record<string, unknown>> };
    const elicitationId = data.elicitations[0]?.['elicitationId'];
    expect(typeof elicitationId).toBe('string');
    const retry = await client.request('tools/call', { name: 'elicit_url', arguments: args });
    expect(retry.response?.error).toMatchObject({
      code: -32042,
      data: { elicitations: [{ elicitationId }] },
    });
  });

  it('with required, announces completion unrelated to the call, then the retry succeeds', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: URL_CAPABLE });
    const { reader } = await client.get();
    const args = { required: true, completeAfterMs: 0 };
    const first = await client.request('tools/call', { name: 'elicit_url', arguments: args });
    const data = first.response?.error?.data as { elicitations: Array<Record<string, unknown>> };
    const elicitationId = data.elicitations[0]?.['elicitationId'];
    const events = await reader.readUntil((event) => event.data.includes('elicitation/complete'));
    expect(messagesOf(events).at(-1)?.params).toEqual({ elicitationId });
    const retry = await client.callTool('elicit_url', args);
    expectStructured(retry, { completed: true, elicitationId });
    await reader.cancel();
  });
});

describe('the asking tools are listed in the legacy era', () => {
  it('lists elicit, elicit_url, sample, list_roots and survey', async () => {
    await using server = await startReferenceServer({ pageSize: 100 });
    const client = await TestClient.connect(server.url);
    const { tools } = (await client.result('tools/list')) as { tools: Array<{ name: string }> };
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['elicit', 'elicit_url', 'sample', 'list_roots', 'survey']),
    );
  });
});
