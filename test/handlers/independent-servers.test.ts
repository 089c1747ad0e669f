/**
 * One set of handlers against the independent servers that ask the client something, each its
 * own way: fiberplane's mcp-lite (`ctx.elicit`, `ctx.sample`, on the call's stream through its
 * session and client-request adapters), fastmcp (`context.elicit`, its session's `requestSampling`), the official v2 server at 2026-07-28 (`input_required`
 * built with `inputRequired`), and server-everything (its elicitation, URL elicitation, sampling
 * and roots tools, registered only for a client that declares those capabilities).
 */
import {
  type ClientOptions,
  createMcpClient,
  type ElicitationRequest,
  type SamplingRequest,
} from '@toolwire/client';
import { describe, expect, test } from 'vitest';
import { startEverythingServer } from '../helpers/everything-server.ts';
import { startFastMcpServer } from '../helpers/fastmcp-server.ts';
import { startMcpLiteServer } from '../helpers/mcp-lite-server.ts';
import { startV2Server } from '../helpers/v2-server.ts';

/** Handlers that record what they were asked and answer as a person and a model would. */
function handlers(answer: 'accept' | 'decline' = 'accept') {
  const asked: ElicitationRequest[] = [];
  const sampled: SamplingRequest[] = [];
  const options: ClientOptions = {
    listen: false,
    onElicitation: (request) => {
      asked.push(request);
      if (answer === 'decline' || request.mode === 'url') return { action: answer };
      return { action: 'accept', content: fill(request) };
    },
    onSampling: (request) => {
      sampled.push(request);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    },
    roots: [{ uri: 'file:///home/ada/project', name: 'project' }],
  };
  return { asked, sampled, options };
}

/** A person filling in a form: "Ada" for a name, yes to every yes/no question, nothing else. */
function fill(request: ElicitationRequest): Record<string, string | boolean> {
  if (request.mode !== 'form') return {};
  const content: Record<string, string | boolean> = {};
  for (const [field, schema] of Object.entries(request.requestedSchema.properties)) {
    if (field === 'name') content[field] = 'Ada';
    else if ((schema as { type?: string }).type === 'boolean') content[field] = true;
  }
  return content;
}

function text(result: { content: Array<{ type: string }> }): string {
  return result.content.map((item) => (item as { text?: string }).text ?? '').join('\n');
}

describe('mcp-lite (stateful, with its session and client-request adapters)', () => {
  test('ctx.elicit is answered by onElicitation, accepted and declined', async () => {
    await using server = await startMcpLiteServer('stateful');
    const yes = handlers();
    await using client = createMcpClient(server.url, yes.options);
    expect(text(await client.callTool('confirm'))).toBe('deleted');
    expect(yes.asked[0]).toMatchObject({ mode: 'form', message: 'Delete the record?' });
    const no = handlers('decline');
    await using other = createMcpClient(server.url, no.options);
    expect(text(await other.callTool('confirm'))).toBe('kept (decline)');
  });

  test("ctx.sample is answered by onSampling, the model's text reaching the tool", async () => {
    await using server = await startMcpLiteServer('stateful');
    const { sampled, options } = handlers();
    await using client = createMcpClient(server.url, options);
    expect(text(await client.callTool('capital'))).toContain('Paris');
    expect(sampled[0]?.messages[0]?.content).toMatchObject({
      type: 'text',
      text: 'What is the capital of France?',
    });
  });
});

describe('the official v2 server at 2026-07-28 (input_required)', () => {
  test('an elicitation round is answered and the call sent again with the answer', async () => {
    await using server = await startV2Server('dual-era');
    const yes = handlers();
    await using client = createMcpClient(server.url, yes.options);
    expect(text(await client.callTool('deploy', { env: 'prod' }))).toBe('deployed to prod');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(yes.asked[0]).toMatchObject({ mode: 'form', message: 'Deploy to prod?' });
    const no = handlers('decline');
    await using other = createMcpClient(server.url, no.options);
    expect(text(await other.callTool('deploy', { env: 'prod' }))).toBe('not deployed');
  });

  test('a sampling round is answered by onSampling', async () => {
    await using server = await startV2Server('dual-era');
    const { sampled, options } = handlers();
    await using client = createMcpClient(server.url, options);
    const result = text(await client.callTool('capital'));
    expect(result).toContain('Paris');
    expect(result).toContain('test-model');
    expect(sampled).toHaveLength(1);
  });
});

describe('fastmcp (httpStream, stateful)', () => {
  test('context.elicit is answered by onElicitation, accepted and declined', async () => {
    await using server = await startFastMcpServer('stateful');
    const yes = handlers();
    // fastmcp sends its questions on the GET stream, not the call's: the client must listen.
    await using client = createMcpClient(server.url, { ...yes.options, listen: true });
    expect(text(await client.callTool('confirm'))).toBe('shipped');
    expect(yes.asked[0]).toMatchObject({ mode: 'form', message: 'Ship it?' });
    const no = handlers('decline');
    await using other = createMcpClient(server.url, { ...no.options, listen: true });
    expect(text(await other.callTool('confirm'))).toBe('not shipped (decline)');
  });

  test("the session's requestSampling is answered by onSampling", async () => {
    await using server = await startFastMcpServer('stateful');
    const { sampled, options } = handlers();
    await using client = createMcpClient(server.url, { ...options, listen: true });
    expect(text(await client.callTool('capital'))).toBe('sampled: Paris (test-model)');
    expect(sampled[0]?.maxTokens).toBe(20);
  });
});

describe('server-everything (its tools for clients that declare the capabilities)', () => {
  test('elicitation, URL elicitation, sampling and roots are each answered', async () => {
    await using server = await startEverythingServer();
    const { asked, sampled, options } = handlers();
    // It asks for the roots outside any call, on the GET stream: the client must listen.
    await using client = createMcpClient(server.url, { ...options, listen: true });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'trigger-elicitation-request',
        'trigger-url-elicitation',
        'trigger-sampling-request',
        'get-roots-list',
      ]),
    );

    const form = text(await client.callTool('trigger-elicitation-request'));
    expect(form).toContain('User provided the requested information');
    expect(form).toContain('Ada');
    // The form's defaults were filled in for what the handler left out.
    expect(form).toContain('It was a dark and stormy night.');

    await client.callTool('trigger-url-elicitation', { url: 'https://example.com/consent' });
    expect(asked.at(-1)).toMatchObject({ mode: 'url', url: 'https://example.com/consent' });

    const sampledText = text(
      await client.callTool('trigger-sampling-request', { prompt: 'the sea', maxTokens: 20 }),
    );
    expect(sampledText).toContain('Paris');
    expect(sampled.at(-1)?.maxTokens).toBe(20);

    expect(text(await client.callTool('get-roots-list'))).toContain('file:///home/ada/project');
  });
});
