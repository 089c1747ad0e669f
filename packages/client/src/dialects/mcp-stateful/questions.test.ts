/**
 * A question the server asks on a call's own stream (2025 revisions) goes to the `ask` the
 * dialect was given; when the application cannot answer it, the call ends with that error at
 * once, through its waiter, and the call's deadline is left alone.
 */
import { describe, expect, it, vi } from 'vitest';
import { Deadline } from '../../core/deadline.ts';
import { HandlerError } from '../../core/errors.ts';
import type { JsonRpcMessage } from '../../core/jsonrpc.ts';
import { Responder } from '../../handlers/responder.ts';
import type { Handlers } from '../../handlers/types.ts';
import type { Channel, SessionOpening } from '../../wire/channels/channel.ts';
import { StatefulDialect } from './index.ts';

const HANDLERS: Handlers = {
  onElicitation: undefined,
  elicitationModes: ['form'],
  onSampling: undefined,
  samplingTools: false,
  roots: undefined,
};
const QUESTION = {
  jsonrpc: '2.0' as const,
  id: 'q1',
  method: 'elicitation/create',
  params: {
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
};

/** A channel whose server asks one question on the call's stream, then waits, as a server does. */
function askingChannel(sent: JsonRpcMessage[]): Channel {
  return {
    label: 'http://server.test/mcp',
    mirrors: false,
    request(_message, call) {
      call.onMessage({ kind: 'request', message: QUESTION });
      const { signal } = call.deadline;
      return new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
    async send(message) {
      sent.push(message);
    },
    attach() {},
    async close() {},
  };
}

/**
 * A session channel whose server asks the question on the `initialize` stream and never answers
 * it; `abandoned` says whether the request was ended (its deadline aborted) after the failure.
 */
function askingOnHandshake(sent: JsonRpcMessage[]): { channel: Channel; abandoned: () => boolean } {
  let signal: AbortSignal | undefined;
  let open: ((deadline: Deadline, opening: SessionOpening) => Promise<void>) | undefined;
  const opening: SessionOpening = {
    request(_message, call) {
      signal = call.deadline.signal;
      call.onMessage({ kind: 'request', message: QUESTION });
      return new Promise((_, reject) => {
        call.deadline.signal.addEventListener('abort', () => reject(call.deadline.signal.reason), {
          once: true,
        });
      });
    },
    async send() {},
    opened() {},
  };
  const channel: Channel = {
    ...askingChannel(sent),
    keepSession(opener) {
      open = opener;
    },
    openSession: (deadline) => open!(deadline, opening),
  };
  return { channel, abandoned: () => signal?.aborted === true };
}

/** Connects the dialect over `channel`, its questions answered by `handlers`. */
function connectWith(handlers: Partial<Handlers>, channel: Channel, connecting: Deadline) {
  const responder = new Responder({ ...HANDLERS, ...handlers }, () => ({
    name: 's',
    version: '1',
    protocolVersion: '2025-11-25',
    url: channel.label,
  }));
  return StatefulDialect.connect(
    {
      clientInfo: { name: 'test', version: '1' },
      capabilities: { elicitation: { form: {} } },
      protocolVersion: '2025-11-25',
      supportedVersions: ['2025-11-25'],
      listen: false,
      timeoutMs: 60_000,
      maxTimeoutMs: 60_000,
      ask: (question, context) => responder.answer(question, context),
    },
    channel,
    { notification: () => {}, warning: () => {} },
    connecting,
  );
}

async function dialectWith(handlers: Partial<Handlers>, sent: JsonRpcMessage[]) {
  using connecting = new Deadline({ timeoutMs: 1_000, maxTimeoutMs: 1_000, context: {} });
  return connectWith(handlers, askingChannel(sent), connecting);
}

describe('a question on a call stream', () => {
  it('a handler that throws rejects the call with HandlerError at once, before any deadline', async () => {
    const sent: JsonRpcMessage[] = [];
    const dialect = await dialectWith(
      {
        onElicitation: () => {
          throw new Error('no user at the keyboard');
        },
      },
      sent,
    );
    // A deadline far past the test's own timeout: only the direct path can end the call in time.
    using deadline = new Deadline({
      timeoutMs: 3_600_000,
      maxTimeoutMs: 3_600_000,
      context: { method: 'tools/call', tool: 'greet' },
    });
    const error = await dialect
      .send(
        { method: 'tools/call', params: { name: 'greet' }, idempotent: false, tool: 'greet' },
        { deadline },
        (outcome) => outcome,
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandlerError);
    expect((error as HandlerError).message).toMatch(/no user at the keyboard/);
    // The call ended by its waiter, not by aborting the deadline it shares with its requests.
    expect(deadline.signal.aborted).toBe(false);
    // The server still gets its refusal: an internal error under its own id.
    await vi.waitFor(() =>
      expect(sent).toEqual([
        expect.objectContaining({ id: 'q1', error: expect.objectContaining({ code: -32603 }) }),
      ]),
    );
    await dialect.close();
  });

  it('a question the handshake cannot answer fails the connection and ends the initialize it left', async () => {
    const sent: JsonRpcMessage[] = [];
    const { channel, abandoned } = askingOnHandshake(sent);
    // No call owns the connection's deadline: only the handshake can end the request it leaves.
    using connecting = new Deadline({ timeoutMs: 3_600_000, maxTimeoutMs: 3_600_000, context: {} });
    const error = await connectWith(
      {
        onElicitation: () => {
          throw new Error('no user at the keyboard');
        },
      },
      channel,
      connecting,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandlerError);
    expect(abandoned()).toBe(true);
  });
});
