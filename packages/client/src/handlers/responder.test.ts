import { describe, expect, it } from 'vitest';
import {
  HandlerError,
  InputRequiredError,
  MalformedMessageError,
  TimeoutError,
} from '../core/errors.ts';
import { clientCapabilities } from './capabilities.ts';
import { Responder } from './responder.ts';
import type { Handlers } from './types.ts';

const NONE: Handlers = {
  onElicitation: undefined,
  elicitationModes: ['form', 'url'],
  onSampling: undefined,
  samplingTools: false,
  roots: undefined,
};
const server = () => ({ name: 's', version: '1', protocolVersion: '2025-11-25', url: 'http://x/' });
const responder = (handlers: Partial<Handlers>) => new Responder({ ...NONE, ...handlers }, server);
const live = { signal: new AbortController().signal };

const form = (properties: Record<string, unknown>, required?: string[]) => ({
  method: 'elicitation/create',
  params: { message: 'm', requestedSchema: { type: 'object', properties, required } },
});

describe('capabilities', () => {
  it('declares nothing without handlers', () => {
    expect(clientCapabilities(NONE)).toEqual({});
  });
  it('declares what the handlers answer', () => {
    const handlers: Handlers = {
      onElicitation: () => ({ action: 'cancel' }),
      elicitationModes: ['url'],
      onSampling: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
      samplingTools: true,
      roots: [],
    };
    expect(clientCapabilities(handlers)).toEqual({
      elicitation: { url: {} },
      sampling: { tools: {} },
      roots: { listChanged: true },
    });
  });
});

describe('elicitation', () => {
  it('fills every kind of default, and keeps what the user gave', async () => {
    const ask = form({
      s: { type: 'string', default: 'x' },
      i: { type: 'integer', default: 3 },
      n: { type: 'number', default: 1.5 },
      b: { type: 'boolean', default: true },
      e: { type: 'string', enum: ['a', 'b'], default: 'b' },
      m: { type: 'array', items: { type: 'string', enum: ['p', 'q'] }, default: ['q'] },
      given: { type: 'string', default: 'no' },
    });
    const answer = await responder({
      onElicitation: () => ({ action: 'accept', content: { given: 'yes' } }),
    }).answer(ask, live);
    expect(answer).toEqual({
      ok: true,
      result: {
        action: 'accept',
        content: { s: 'x', i: 3, n: 1.5, b: true, e: 'b', m: ['q'], given: 'yes' },
      },
    });
  });

  it('an answer outside the form is the handler error, replied to as an internal error', async () => {
    const answer = await responder({
      onElicitation: () => ({ action: 'accept', content: { e: 'z' } }),
    }).answer(form({ e: { type: 'string', enum: ['a'] } }, ['e']), live);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error).toBeInstanceOf(HandlerError);
    expect(answer.refusal.code).toBe(-32603);
  });

  it('an action that is not one of the three is the handler error', async () => {
    const answer = await responder({
      onElicitation: () => ({ action: 'maybe' }) as never,
    }).answer(form({}), live);
    expect(!answer.ok && answer.error).toBeInstanceOf(HandlerError);
  });

  it('a nested form is refused as invalid params before any handler sees it', async () => {
    let called = false;
    const answer = await responder({
      onElicitation: () => {
        called = true;
        return { action: 'cancel' };
      },
    }).answer(form({ address: { type: 'object' } }), live);
    expect(called).toBe(false);
    expect(!answer.ok && answer.error).toBeInstanceOf(MalformedMessageError);
    expect(!answer.ok && answer.refusal.code).toBe(-32602);
  });

  it('without onElicitation an elicitation is method-not-found, as the README says', async () => {
    const answer = await responder({}).answer(form({ name: { type: 'string' } }), live);
    expect(!answer.ok && answer.error).toBeInstanceOf(InputRequiredError);
    expect(!answer.ok && answer.refusal.code).toBe(-32601);
  });

  it('a mode not declared is -32602 and names what to register', async () => {
    const answer = await responder({
      onElicitation: () => ({ action: 'accept' }),
      elicitationModes: ['form'],
    }).answer(
      { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://a/' } },
      live,
    );
    expect(!answer.ok && answer.error).toBeInstanceOf(InputRequiredError);
    expect(!answer.ok && answer.refusal.code).toBe(-32602);
    expect(!answer.ok && (answer.error as InputRequiredError).handlers).toEqual([
      "elicitationModes including 'url'",
    ]);
  });

  it('a URL accept carries no content, whatever the handler returned', async () => {
    const answer = await responder({
      onElicitation: () => ({ action: 'accept', content: { secret: 'x' } }),
    }).answer(
      { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://a/' } },
      live,
    );
    expect(answer).toEqual({ ok: true, result: { action: 'accept' } });
  });

  it.each([
    'file:///C:/Windows/System32/calc.exe',
    'javascript:alert(1)',
    'ms-msdt:/id PCWDiagnostic',
    'vscode://extension/install',
  ])('a URL elicitation of %s never reaches the handler, and is -32602', async (url) => {
    const seen: unknown[] = [];
    const answer = await responder({
      onElicitation: (request) => {
        seen.push(request);
        return { action: 'accept' };
      },
    }).answer({ method: 'elicitation/create', params: { mode: 'url', message: 'm', url } }, live);
    expect(seen).toEqual([]);
    expect(!answer.ok && answer.refusal.code).toBe(-32602);
    expect(!answer.ok && answer.error.message).toMatch(/not http\(s\)/);
  });

  it('a handler that never settles is left behind when the signal fires', async () => {
    const controller = new AbortController();
    const pending = responder({ onElicitation: () => new Promise(() => {}) }).answer(form({}), {
      signal: controller.signal,
    });
    controller.abort(new TimeoutError(5));
    const answer = await pending;
    expect(!answer.ok && answer.error).toBeInstanceOf(TimeoutError);
  });
});

describe('sampling and roots', () => {
  const sampling = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };

  it('no handler is method-not-found; tools without samplingTools are invalid params', async () => {
    const none = await responder({}).answer(sampling, live);
    expect(!none.ok && none.refusal.code).toBe(-32601);
    const withTools = await responder({
      onSampling: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
    }).answer({ ...sampling, params: { ...sampling.params, tools: [] } }, live);
    expect(!withTools.ok && withTools.refusal.code).toBe(-32602);
    expect(!withTools.ok && (withTools.error as InputRequiredError).handlers).toEqual([
      'samplingTools: true',
    ]);
  });

  it('a sampling handler that throws is a rejection (-1)', async () => {
    const answer = await responder({
      onSampling: () => {
        throw new Error('the user said no');
      },
    }).answer(sampling, live);
    expect(!answer.ok && answer.refusal).toMatchObject({ code: -1 });
  });

  it('roots without uri strings are the handler error', async () => {
    const answer = await responder({ roots: [{ name: 'x' }] as never }).answer(
      { method: 'roots/list' },
      live,
    );
    expect(!answer.ok && answer.error).toBeInstanceOf(HandlerError);
  });

  it('an unknown question is method-not-found', async () => {
    const answer = await responder({}).answer({ method: 'tasks/get' }, live);
    expect(!answer.ok && answer.refusal.code).toBe(-32601);
  });
});
