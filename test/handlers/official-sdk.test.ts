/**
 * Elicitation, sampling and roots against the official 1.x server (`elicitInput`,
 * `createMessage`, `listRoots`), which asks on the call's own SSE stream: the legacy way.
 */
import {
  type ClientOptions,
  createMcpClient,
  type ElicitationRequest,
  type HandlerContext,
  HandlerError,
  type SamplingRequest,
  TimeoutError,
} from '@toolwire/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type SdkServer, startSdkServer } from '../helpers/sdk-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer('stateful');
});
afterAll(() => server.close());

const client = (options: ClientOptions) => createMcpClient(server.url, options);

/** The tool's single text item, parsed: what the server got back from the client. */
function answered(result: { content: Array<{ type: string }> }): unknown {
  const [item] = result.content;
  return JSON.parse((item as unknown as { text: string }).text);
}

describe('elicitation', () => {
  test('a form answer gets the form defaults for what the user left out', async () => {
    const seen: Array<{ request: ElicitationRequest; context: HandlerContext }> = [];
    await using mcp = client({
      onElicitation: (request, context) => {
        seen.push({ request, context });
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const result = await mcp.callTool('ask_profile');
    expect(answered(result)).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 30, newsletter: false, color: 'green' },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.request).toMatchObject({ mode: 'form', message: 'Your profile' });
    expect(seen[0]?.context).toMatchObject({
      tool: 'ask_profile',
      server: { name: 'sdk-interop', protocolVersion: '2025-11-25', url: server.url },
    });
  });

  test.each(['decline', 'cancel'] as const)(
    'a %sd form reaches the server as such',
    async (action) => {
      await using mcp = client({ onElicitation: () => ({ action }) });
      expect(answered(await mcp.callTool('ask_profile'))).toEqual({ action });
    },
  );

  test('an answer that does not match the form fails the call with HandlerError, and the server is told', async () => {
    await using mcp = client({
      onElicitation: () => ({ action: 'accept', content: { name: 'Ada', age: 'old' } }),
    });
    const before = server.requests.length;
    const error = await mcp.callTool('ask_profile').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandlerError);
    expect((error as HandlerError).problems).toEqual(['/age must be integer']);
    await waitFor(() =>
      server.requests.slice(before).some((r) => r.method === 'notifications/cancelled'),
    );
  });

  test('a handler that throws fails the call with HandlerError carrying what it threw', async () => {
    const thrown = new Error('no UI here');
    await using mcp = client({
      onElicitation: () => {
        throw thrown;
      },
    });
    const error = await mcp.callTool('ask_profile').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandlerError);
    expect((error as HandlerError).cause).toBe(thrown);
  });

  test('without a handler the capability is not declared, so the server does not ask', async () => {
    await using mcp = client({});
    const result = await mcp.callTool('ask_profile');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/elicitation/i);
  });

  test('a URL elicitation gives the handler the URL and its id, and the completion arrives as an event', async () => {
    const requests: ElicitationRequest[] = [];
    await using mcp = client({
      onElicitation: (request) => {
        requests.push(request);
        return { action: 'accept' };
      },
    });
    const completed: string[] = [];
    mcp.on('elicitationComplete', (id) => completed.push(id));
    const result = answered(await mcp.callTool('ask_url')) as { elicitationId: string };
    expect(result).toMatchObject({ action: 'accept' });
    expect(requests).toEqual([
      {
        mode: 'url',
        message: 'Connect',
        url: 'https://example.com/connect',
        elicitationId: result.elicitationId,
      },
    ]);
    await waitFor(() => completed.includes(result.elicitationId));
  });

  test('the server cancelling its own request aborts the handler signal', async () => {
    let reason: unknown;
    await using mcp = client({
      onElicitation: (_request, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve({ action: 'cancel' });
          });
        }),
    });
    const result = await mcp.callTool('ask_then_cancel');
    expect(result.isError).toBe(true);
    await waitFor(() => reason !== undefined);
    expect(String(reason)).toMatch(/cancelled by the server/);
  });

  test('a handler that hangs past the deadline ends the call at the deadline, its signal aborted', async () => {
    let signal: AbortSignal | undefined;
    await using mcp = client({
      onElicitation: (_request, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    });
    await mcp.listTools();
    const error = await mcp.callTool('ask_profile', {}, { timeoutMs: 300 }).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(signal?.aborted).toBe(true);
  });

  test('several questions in flight at once are each answered', async () => {
    let open = 0;
    let most = 0;
    await using mcp = client({
      onElicitation: async () => {
        most = Math.max(most, ++open);
        await new Promise((resolve) => setTimeout(resolve, 50));
        open--;
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const results = await Promise.all([1, 2, 3].map(() => mcp.callTool('ask_profile')));
    for (const result of results) expect(answered(result)).toMatchObject({ action: 'accept' });
    expect(most).toBe(3);
  });
});

describe('sampling', () => {
  test('the handler gets the request and its result goes back to the server', async () => {
    const seen: SamplingRequest[] = [];
    await using mcp = client({
      onSampling: (request) => {
        seen.push(request);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'Short.' },
          model: 'test-model',
        };
      },
    });
    const result = await mcp.callTool('summarize', { text: 'a long text', withTools: false });
    expect(answered(result)).toMatchObject({
      model: 'test-model',
      content: { type: 'text', text: 'Short.' },
    });
    expect(seen[0]).toMatchObject({
      maxTokens: 50,
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long text' } }],
    });
  });

  test('tools reach a handler that declared it takes them, and a tool_use answer goes back', async () => {
    const seen: SamplingRequest[] = [];
    await using mcp = client({
      samplingTools: true,
      onSampling: (request) => {
        seen.push(request);
        return {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'u1', name: 'lookup', input: {} }],
          model: 'test-model',
          stopReason: 'toolUse',
        };
      },
    });
    const result = await mcp.callTool('summarize', { text: 'x', withTools: true });
    expect(answered(result)).toMatchObject({ stopReason: 'toolUse' });
    expect(seen[0]?.tools?.map((tool) => tool.name)).toEqual(['lookup']);
    expect(seen[0]?.toolChoice).toEqual({ mode: 'auto' });
  });

  test('without samplingTools the capability says no tools, and the server does not send them', async () => {
    await using mcp = client({
      onSampling: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
    });
    const result = await mcp.callTool('summarize', { text: 'x', withTools: true });
    expect(result.isError).toBe(true);
  });

  test('a result without a model is the handler error, not a malformed reply', async () => {
    await using mcp = client({
      onSampling: () =>
        ({ role: 'assistant', content: { type: 'text', text: 'x' } }) as unknown as never,
    });
    const error = await mcp.callTool('summarize', { text: 'x', withTools: false }).catch((e) => e);
    expect(error).toBeInstanceOf(HandlerError);
    expect((error as HandlerError).problems).toEqual(['model is not a string']);
  });
});

describe('roots', () => {
  test('a fixed list is what the server gets', async () => {
    await using mcp = client({ roots: [{ uri: 'file:///work', name: 'work' }] });
    expect(answered(await mcp.callTool('roots'))).toEqual({
      roots: [{ uri: 'file:///work', name: 'work' }],
    });
  });

  test('a function is asked each time, with the handler context', async () => {
    let asked = 0;
    await using mcp = client({
      roots: ({ tool }) => [{ uri: `file:///ask/${++asked}/${String(tool)}` }],
    });
    await mcp.callTool('roots');
    expect(answered(await mcp.callTool('roots'))).toEqual({
      roots: [{ uri: 'file:///ask/2/roots' }],
    });
  });
});
