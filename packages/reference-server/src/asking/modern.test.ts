/**
 * The asking tools in 2026-07-28, driven over raw HTTP: the test plays the client, reading each
 * `input_required` result and retrying with `inputResponses` and the `requestState` echoed as
 * given, as basic/patterns/mrtr.mdx describes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../index.ts';
import type { Exchange, ToolResult } from '../testing/client.ts';
import { modern } from '../testing/modern.ts';

const ADA = { action: 'accept', content: { name: 'Ada' } };
const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'hi' },
  model: 'test-model',
  stopReason: 'endTurn',
};
const ROOTS = { roots: [{ uri: 'file:///home/ada/project', name: 'project' }] };
const URL_CAPABLE = { elicitation: { form: {}, url: {} } };

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ dualEra: true });
});
afterAll(async () => {
  await server.close();
});

let nextId = 1;

/** One modern tools/call; `retry` carries what the previous input_required asked for. */
function call(
  name: string,
  args: Record<string, unknown>,
  capabilities: Record<string, unknown>,
  retry: { inputResponses?: Record<string, unknown>; requestState?: unknown } = {},
  url = server.urls.modern,
): Promise<Exchange> {
  return modern(
    url,
    nextId++,
    'tools/call',
    { name, arguments: args, ...retry },
    { meta: { 'io.modelcontextprotocol/clientCapabilities': capabilities } },
  );
}

function resultOf(exchange: Exchange): Record<string, unknown> {
  const result = exchange.response?.result;
  if (result === undefined) throw new Error(`no result: ${JSON.stringify(exchange.response)}`);
  return result;
}

/** The input_required result of `exchange`; fails the test on anything else. */
function inputRequiredOf(exchange: Exchange): {
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState: string;
} {
  const result = resultOf(exchange);
  expect(result['resultType']).toBe('input_required');
  expect(typeof result['requestState']).toBe('string');
  return result as never;
}

/** A completed result must carry its structuredContent as its one text item too. */
function expectStructured(exchange: Exchange, expected: Record<string, unknown>): void {
  const result = resultOf(exchange) as unknown as ToolResult & { resultType: string };
  expect(result.resultType).toBe('complete');
  expect(result.isError).toBeUndefined();
  expect(result.structuredContent).toEqual(expected);
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(expected) }]);
}

describe('elicit in 2026-07-28', () => {
  it('refuses with 400 and -32021 when elicitation is not declared', async () => {
    const refused = await call('elicit', { message: 'x' }, { sampling: {} });
    expect(refused.http.status).toBe(400);
    expect(refused.response?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('answers input_required with a form request, and completes on the retry', async () => {
    const args = { message: 'Who are you?' };
    const asked = inputRequiredOf(await call('elicit', args, { elicitation: {} }));
    expect(asked.inputRequests).toEqual({
      form: {
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
      },
    });
    const done = await call(
      'elicit',
      args,
      { elicitation: {} },
      {
        inputResponses: { form: ADA },
        requestState: asked.requestState,
      },
    );
    expectStructured(done, { answers: [ADA] });
  });

  it('asks round after round, each with a new state, and returns the answers in order', async () => {
    const args = { message: 'Again?', rounds: 3 };
    const answers = [ADA, { action: 'decline' }, { action: 'cancel' }];
    const states = new Set<string>();
    let exchange = await call('elicit', args, { elicitation: {} });
    for (const answer of answers) {
      const asked = inputRequiredOf(exchange);
      expect(Object.keys(asked.inputRequests ?? {})).toEqual(['form']);
      states.add(asked.requestState);
      exchange = await call(
        'elicit',
        args,
        { elicitation: {} },
        {
          inputResponses: { form: answer },
          requestState: asked.requestState,
        },
      );
    }
    expect(states.size).toBe(3);
    expectStructured(exchange, { answers });
  });

  it('asks the same round again when the retry brings no answer', async () => {
    const args = { message: 'Name?' };
    const asked = inputRequiredOf(await call('elicit', args, { elicitation: {} }));
    const again = inputRequiredOf(
      await call('elicit', args, { elicitation: {} }, { requestState: asked.requestState }),
    );
    expect(again.inputRequests).toEqual(asked.inputRequests);
  });

  it('ignores answers that come without the state they were asked under', async () => {
    const retry = { inputResponses: { form: ADA } };
    const exchange = await call('elicit', { message: 'x' }, { elicitation: {} }, retry);
    expect(inputRequiredOf(exchange).inputRequests).toHaveProperty('form');
  });

  it('sheds load: the first attempt carries only a requestState, the retry asks', async () => {
    const args = { message: 'Name?', shed: true };
    const shed = inputRequiredOf(await call('elicit', args, { elicitation: {} }));
    expect(shed).not.toHaveProperty('inputRequests');
    const asked = inputRequiredOf(
      await call('elicit', args, { elicitation: {} }, { requestState: shed.requestState }),
    );
    expect(asked.inputRequests).toHaveProperty('form');
    const done = await call(
      'elicit',
      args,
      { elicitation: {} },
      {
        inputResponses: { form: ADA },
        requestState: asked.requestState,
      },
    );
    expectStructured(done, { answers: [ADA] });
  });

  it('asks a client that did not declare elicitation when forced', async () => {
    const asked = inputRequiredOf(await call('elicit', { message: 'x', force: true }, {}));
    expect(asked.inputRequests?.['form']?.method).toBe('elicitation/create');
  });

  it('refuses a tampered state, and a state of the same tool called with other arguments', async () => {
    const asked = inputRequiredOf(await call('elicit', { message: 'x' }, { elicitation: {} }));
    const retry = { inputResponses: { form: ADA } };
    const tampered = await call(
      'elicit',
      { message: 'x' },
      { elicitation: {} },
      {
        ...retry,
        requestState: `${asked.requestState}x`,
      },
    );
    expect(tampered.response?.error?.code).toBe(-32602);
    const foreign = await call(
      'elicit',
      { message: 'y' },
      { elicitation: {} },
      {
        ...retry,
        requestState: asked.requestState,
      },
    );
    expect(foreign.response?.error?.code).toBe(-32602);
  });

  it('refuses an answer that is not an ElicitResult with -32602', async () => {
    const asked = inputRequiredOf(await call('elicit', { message: 'x' }, { elicitation: {} }));
    const bad = await call(
      'elicit',
      { message: 'x' },
      { elicitation: {} },
      {
        inputResponses: { form: { action: 'maybe' } },
        requestState: asked.requestState,
      },
    );
    expect(bad.response?.error).toMatchObject({ code: -32602 });
    expect(bad.response?.error?.message).toContain('inputResponses.form');
  });
});

describe('sample in 2026-07-28', () => {
  it('asks under the key sample and returns the CreateMessageResult as received', async () => {
    const args = { prompt: 'Say hi', maxTokens: 7 };
    const asked = inputRequiredOf(await call('sample', args, { sampling: {} }));
    expect(asked.inputRequests).toEqual({
      sample: {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
          maxTokens: 7,
        },
      },
    });
    const done = await call(
      'sample',
      args,
      { sampling: {} },
      {
        inputResponses: { sample: SAMPLED },
        requestState: asked.requestState,
      },
    );
    expectStructured(done, SAMPLED);
  });

  it('needs sampling.tools for withTools, and then offers get_weather with toolChoice auto', async () => {
    const args = { prompt: 'Weather?', withTools: true };
    const refused = await call('sample', args, { sampling: {} });
    expect(refused.response?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });
    const asked = inputRequiredOf(await call('sample', args, { sampling: { tools: {} } }));
    expect(asked.inputRequests?.['sample']?.params).toMatchObject({
      tools: [{ name: 'get_weather', inputSchema: { required: ['city'] } }],
      toolChoice: { mode: 'auto' },
    });
  });
});

describe('list_roots in 2026-07-28', () => {
  it('asks roots/list under the key roots and returns the answer as received', async () => {
    const asked = inputRequiredOf(await call('list_roots', {}, { roots: {} }));
    expect(asked.inputRequests).toEqual({ roots: { method: 'roots/list', params: {} } });
    const done = await call(
      'list_roots',
      {},
      { roots: {} },
      {
        inputResponses: { roots: ROOTS },
        requestState: asked.requestState,
      },
    );
    expectStructured(done, ROOTS);
  });

  it('refuses without roots, unless forced', async () => {
    const refused = await call('list_roots', {}, {});
    expect(refused.response?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
    });
    const forced = inputRequiredOf(await call('list_roots', { force: true }, {}));
    expect(forced.inputRequests).toHaveProperty('roots');
  });
});

describe('survey in 2026-07-28', () => {
  const ALL = { elicitation: {}, sampling: {}, roots: {} };

  it('asks three things in one input_required, asks again only for what is missing, then completes', async () => {
    const asked = inputRequiredOf(await call('survey', {}, ALL));
    expect(asked.inputRequests).toMatchObject({
      name: { method: 'elicitation/create', params: { mode: 'form' } },
      hi: { method: 'sampling/createMessage' },
      roots: { method: 'roots/list' },
    });
    const partial = inputRequiredOf(
      await call('survey', {}, ALL, {
        inputResponses: { name: ADA },
        requestState: asked.requestState,
      }),
    );
    expect(Object.keys(partial.inputRequests ?? {}).sort()).toEqual(['hi', 'roots']);
    const done = await call('survey', {}, ALL, {
      inputResponses: { hi: SAMPLED, roots: ROOTS },
      requestState: partial.requestState,
    });
    expectStructured(done, { elicitation: ADA, sampling: SAMPLED, roots: ROOTS });
  });

  it('names every missing capability in -32021', async () => {
    const refused = await call('survey', {}, { sampling: {} });
    expect(refused.response?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {}, roots: {} } },
    });
  });
});

describe('elicit_url in 2026-07-28', () => {
  it('needs elicitation.url', async () => {
    const refused = await call('elicit_url', {}, { elicitation: {} });
    expect(refused.response?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });

  it('asks again, same key and elicitationId, while the interaction is not complete', async () => {
    const args = { completeAfterMs: 600_000 };
    const asked = inputRequiredOf(await call('elicit_url', args, URL_CAPABLE));
    const link = asked.inputRequests?.['link'];
    expect(link).toMatchObject({
      method: 'elicitation/create',
      params: {
        mode: 'url',
        url: 'https://example.com/connect',
        message: 'Connect your account',
      },
    });
    const elicitationId = link?.params['elicitationId'];
    expect(typeof elicitationId).toBe('string');
    const again = inputRequiredOf(
      await call('elicit_url', args, URL_CAPABLE, {
        inputResponses: { link: { action: 'accept' } },
        requestState: asked.requestState,
      }),
    );
    expect(again.inputRequests).toEqual(asked.inputRequests);
    expect(again.requestState).not.toBe(asked.requestState);
  });

  it('completes on an accepting retry once the interaction is complete', async () => {
    const args = { url: 'https://example.com/pay', message: 'Pay', completeAfterMs: 0 };
    const asked = inputRequiredOf(await call('elicit_url', args, URL_CAPABLE));
    const elicitationId = asked.inputRequests?.['link']?.params['elicitationId'];
    const done = await call('elicit_url', args, URL_CAPABLE, {
      inputResponses: { link: { action: 'accept' } },
      requestState: asked.requestState,
    });
    expectStructured(done, { action: 'accept', completed: true, elicitationId });
  });

  it('returns only the action on decline or cancel', async () => {
    for (const action of ['decline', 'cancel']) {
      const asked = inputRequiredOf(await call('elicit_url', {}, URL_CAPABLE));
      const done = await call('elicit_url', {}, URL_CAPABLE, {
        inputResponses: { link: { action } },
        requestState: asked.requestState,
      });
      expectStructured(done, { action });
    }
  });
});

describe('the asking tools on the dual-era endpoint', () => {
  it('are listed in 2026-07-28 and work on /mcp too', async () => {
    const list = await modern(server.url, nextId++, 'tools/list', {});
    const names = (resultOf(list)['tools'] as Array<{ name: string }>).map((tool) => tool.name);
    // The list is paginated: gather every page.
    let cursor = resultOf(list)['nextCursor'];
    while (typeof cursor === 'string') {
      const page = resultOf(await modern(server.url, nextId++, 'tools/list', { cursor }));
      names.push(...(page['tools'] as Array<{ name: string }>).map((tool) => tool.name));
      cursor = page['nextCursor'];
    }
    expect(names).toEqual(
      expect.arrayContaining(['elicit', 'elicit_url', 'sample', 'list_roots', 'survey']),
    );
    const asked = inputRequiredOf(await call('list_roots', {}, { roots: {} }, {}, server.url));
    const done = await call(
      'list_roots',
      {},
      { roots: {} },
      {
        inputResponses: { roots: ROOTS },
        requestState: asked.requestState,
      },
      server.url,
    );
    expectStructured(done, ROOTS);
  });
});
