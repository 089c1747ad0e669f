/**
 * One set of handlers, every way the reference server asks: server requests on a legacy call's
 * stream (Streamable HTTP and HTTP+SSE), and `input_required` rounds at 2026-07-28. The same
 * tool, the same handler, the same answer reaching the server.
 */
import {
  type ClientOptions,
  createMcpClient,
  type ElicitationRequest,
  HandlerError,
  InputRequiredError,
  InputRoundsExceededError,
  MissingCapabilityError,
  type SamplingRequest,
  TimeoutError,
} from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

const ERAS = [
  { era: 'legacy', endpoint: () => server.urls.stateful, version: '2025-11-25', tied: true },
  // HTTP+SSE has one stream for everything: a question cannot be tied to the call that caused it.
  { era: 'legacy HTTP+SSE', endpoint: () => server.urls.sse, version: '2024-11-05', tied: false },
  { era: '2026-07-28', endpoint: () => server.urls.modern, version: '2026-07-28', tied: true },
] as const;

const accept = (content: Record<string, string>) => ({ action: 'accept' as const, content });
const reply = {
  role: 'assistant' as const,
  content: { type: 'text' as const, text: 'hi!' },
  model: 'm1',
};

function connect(url: string, options: ClientOptions) {
  return createMcpClient(url, {
    retry: { minDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

/** Every JSON-RPC body the server received for `tools/call` of `tool`, in order. */
function callsOf(tool: string): Array<{ id: unknown; params: Record<string, unknown> }> {
  return server.log
    .map(
      (entry) => entry.body as { method?: string; id?: unknown; params?: Record<string, unknown> },
    )
    .filter((body) => body?.method === 'tools/call' && body.params?.['name'] === tool)
    .map((body) => ({ id: body.id, params: body.params ?? {} }));
}

/**
 * The call's failure when the question is tied to it; otherwise the server's own result, with
 * the client's typed error reported as a warning.
 */
async function failureOf(
  client: ReturnType<typeof connect>,
  tied: boolean,
  call: () => Promise<unknown>,
): Promise<unknown> {
  const warnings: Error[] = [];
  client.on('warning', (error) => warnings.push(error));
  const outcome = await call().then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if (tied) return 'error' in outcome ? outcome.error : outcome;
  expect(outcome).toMatchObject({ result: { isError: true } });
  await waitFor(() => warnings.length > 0);
  return warnings[0];
}

describe.each(ERAS)('$era', ({ endpoint, version, tied }) => {
  test('a form elicitation is answered and reaches the tool', async () => {
    const seen: ElicitationRequest[] = [];
    await using client = connect(endpoint(), {
      onElicitation: (request) => {
        seen.push(request);
        return accept({ name: 'Ada' });
      },
    });
    const result = await client.callTool('elicit', { message: 'Who are you?' });
    expect(client.protocolVersion).toBe(version);
    expect(result.structuredContent).toEqual({ answers: [accept({ name: 'Ada' })] });
    expect(seen).toEqual([
      {
        mode: 'form',
        message: 'Who are you?',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string', title: 'Name' } },
          required: ['name'],
        },
      },
    ]);
  });

  test.each(['decline', 'cancel'] as const)('a %s reaches the tool', async (action) => {
    await using client = connect(endpoint(), { onElicitation: () => ({ action }) });
    const result = await client.callTool('elicit', { message: 'Who?' });
    expect(result.structuredContent).toEqual({ answers: [{ action }] });
  });

  test('several rounds are each put to the handler', async () => {
    let round = 0;
    await using client = connect(endpoint(), {
      onElicitation: () => accept({ name: `n${++round}` }),
    });
    const result = await client.callTool('elicit', { message: 'Again?', rounds: 3 });
    expect(result.structuredContent).toEqual({
      answers: [accept({ name: 'n1' }), accept({ name: 'n2' }), accept({ name: 'n3' })],
    });
  });

  test('sampling, with the request as the server sent it', async () => {
    const seen: SamplingRequest[] = [];
    await using client = connect(endpoint(), {
      onSampling: (request) => {
        seen.push(request);
        return reply;
      },
    });
    const result = await client.callTool('sample', { prompt: 'Greet me' });
    expect(result.structuredContent).toEqual(reply);
    expect(seen).toEqual([
      { messages: [{ role: 'user', content: { type: 'text', text: 'Greet me' } }], maxTokens: 100 },
    ]);
  });

  test('sampling with tools, for a handler that takes them', async () => {
    const seen: SamplingRequest[] = [];
    await using client = connect(endpoint(), {
      samplingTools: true,
      onSampling: (request) => {
        seen.push(request);
        return {
          ...reply,
          content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } }],
          stopReason: 'toolUse',
        };
      },
    });
    const result = await client.callTool('sample', { prompt: 'Weather?', withTools: true });
    expect(result.structuredContent).toMatchObject({ stopReason: 'toolUse' });
    expect(seen[0]?.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  test('roots, from a function asked each time', async () => {
    await using client = connect(endpoint(), {
      roots: () => [{ uri: 'file:///repo', name: 'repo' }],
    });
    const result = await client.callTool('list_roots');
    expect(result.structuredContent).toEqual({ roots: [{ uri: 'file:///repo', name: 'repo' }] });
  });

  test('three questions at once are answered concurrently', async () => {
    let started = 0;
    // Each handler waits until all three have started: they can only finish if run together.
    const together = async () => {
      started += 1;
      await waitFor(() => started === 3, 5_000);
    };
    await using client = connect(endpoint(), {
      onElicitation: async () => {
        await together();
        return accept({ name: 'Ada' });
      },
      onSampling: async () => {
        await together();
        return reply;
      },
      roots: async () => {
        await together();
        return [{ uri: 'file:///r' }];
      },
    });
    const result = await client.callTool('survey');
    expect(result.structuredContent).toEqual({
      elicitation: accept({ name: 'Ada' }),
      sampling: reply,
      roots: { roots: [{ uri: 'file:///r' }] },
    });
  });

  test('a server that asks without the capability gets refused, and the call says which handler is missing', async () => {
    await using client = connect(endpoint(), {});
    const error = await failureOf(client, tied, () =>
      client.callTool('elicit', { message: 'x', force: true }),
    );
    expect(error).toBeInstanceOf(InputRequiredError);
    expect((error as InputRequiredError).handlers).toEqual(['onElicitation']);
    expect((error as InputRequiredError).message).toMatch(/elicitation\/create \(form\)/);
  });

  test('a handler that hangs is given up on at the deadline', async () => {
    await using client = connect(endpoint(), { onElicitation: () => new Promise(() => {}) });
    await client.listTools();
    const call = client.callTool('elicit', { message: 'x' }, { timeoutMs: 300 });
    await expect(call).rejects.toBeInstanceOf(TimeoutError);
  });

  test('an answer outside the form is the handler error and is never sent', async () => {
    await using client = connect(endpoint(), {
      onElicitation: () => ({ action: 'accept', content: { nickname: 7 } as never }),
    });
    const before = callsOf('elicit').length;
    const error = await failureOf(client, tied, () => client.callTool('elicit', { message: 'x' }));
    expect(error).toBeInstanceOf(HandlerError);
    expect((error as HandlerError).problems).toContain("/ must have required property 'name'");
    // At 2026-07-28 no retry carried the bad answer.
    const retries = callsOf('elicit')
      .slice(before)
      .filter((call) => 'inputResponses' in call.params);
    expect(retries).toEqual([]);
  });
});

describe('2026-07-28 rounds', () => {
  const modern = () => server.urls.modern;

  test('a retry is the same request under a new id, with the answers keyed as asked and the state echoed exactly', async () => {
    await using client = connect(modern(), { onElicitation: () => accept({ name: 'Ada' }) });
    const before = callsOf('elicit').length;
    await client.callTool('elicit', { message: 'Who?' });
    const [first, retry] = callsOf('elicit').slice(before);
    expect(retry?.id).not.toEqual(first?.id);
    expect(retry?.params['arguments']).toEqual(first?.params['arguments']);
    expect(retry?.params['inputResponses']).toEqual({ form: accept({ name: 'Ada' }) });
    expect(typeof retry?.params['requestState']).toBe('string');
    expect('requestState' in (first?.params ?? {})).toBe(false);
  });

  test('a state-only answer (load shedding) is retried with the state and nothing else', async () => {
    let asked = 0;
    await using client = connect(modern(), {
      onElicitation: () => {
        asked += 1;
        return accept({ name: 'Ada' });
      },
    });
    const before = callsOf('elicit').length;
    await client.callTool('elicit', { message: 'Who?', shed: true });
    expect(asked).toBe(1);
    const [, shedRetry] = callsOf('elicit').slice(before);
    expect(shedRetry?.params['inputResponses']).toEqual({});
    expect(typeof shedRetry?.params['requestState']).toBe('string');
  });

  test('more rounds than maxInputRounds is a typed error', async () => {
    await using client = connect(modern(), {
      maxInputRounds: 2,
      onElicitation: () => accept({ name: 'Ada' }),
    });
    const error = await client.callTool('elicit', { message: 'x', rounds: 3 }).catch((e) => e);
    expect(error).toBeInstanceOf(InputRoundsExceededError);
    expect((error as InputRoundsExceededError).rounds).toBe(2);
  });

  test('without the capability the server refuses with -32021', async () => {
    await using client = connect(modern(), {});
    await expect(client.callTool('elicit', { message: 'x' })).rejects.toBeInstanceOf(
      MissingCapabilityError,
    );
  });

  test('a URL flow is put to the handler once; the client asks again until the server says it is done', async () => {
    const seen: ElicitationRequest[] = [];
    await using client = connect(modern(), {
      onElicitation: (request) => {
        seen.push(request);
        return { action: 'accept' };
      },
    });
    const result = await client.callTool('elicit_url', { completeAfterMs: 300 });
    expect(result.structuredContent).toMatchObject({ action: 'accept', completed: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ mode: 'url', url: 'https://example.com/connect' });
  });

  test('a declined URL flow goes back as declined', async () => {
    await using client = connect(modern(), { onElicitation: () => ({ action: 'decline' }) });
    const result = await client.callTool('elicit_url', {});
    expect(result.structuredContent).toEqual({ action: 'decline' });
  });
});

describe('2025-11-25 URL elicitation', () => {
  test('the handler gets the URL and its id; the completion arrives as an event', async () => {
    const seen: ElicitationRequest[] = [];
    await using client = connect(server.urls.stateful, {
      onElicitation: (request) => {
        seen.push(request);
        return { action: 'accept' };
      },
    });
    const completed: string[] = [];
    client.on('elicitationComplete', (id) => completed.push(id));
    const result = await client.callTool('elicit_url', { completeAfterMs: 50 });
    const { elicitationId } = result.structuredContent as { elicitationId: string };
    expect(seen).toEqual([
      {
        mode: 'url',
        message: 'Connect your account',
        url: 'https://example.com/connect',
        elicitationId,
      },
    ]);
    await waitFor(() => completed.includes(elicitationId));
  });

  test('-32042: the URL goes to the handler, and the call is sent again once the server reports it complete', async () => {
    const seen: ElicitationRequest[] = [];
    await using client = connect(server.urls.stateful, {
      onElicitation: (request) => {
        seen.push(request);
        return { action: 'accept' };
      },
    });
    const result = await client.callTool('elicit_url', { required: true, completeAfterMs: 200 });
    expect(result.structuredContent).toMatchObject({ completed: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ mode: 'url', elicitationId: expect.any(String) });
  });

  test('-32042 without a handler says which handler is missing, with the elicitations as its cause', async () => {
    await using client = connect(server.urls.stateful, {
      elicitationModes: ['form'],
      onElicitation: () => ({ action: 'cancel' }),
    });
    const error = await client
      .callTool('elicit_url', { required: true, force: true })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputRequiredError);
    expect((error as InputRequiredError).cause).toMatchObject({
      code: 'URL_ELICITATION_REQUIRED',
      elicitations: [expect.objectContaining({ mode: 'url' })],
    });
  });

  test('the server cancelling its own question aborts the handler signal', async () => {
    let reason: unknown;
    await using client = connect(server.urls.stateful, {
      onElicitation: (_request, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve({ action: 'cancel' });
          });
        }),
    });
    const result = await client.callTool('elicit', { message: 'x', cancelAfterMs: 100 });
    expect(result.structuredContent).toEqual({ cancelledByServer: true });
    expect(String(reason)).toMatch(/cancelled by the server/);
  });
});
