import { describe, expect, it } from 'vitest';
import { MalformedMessageError, ResponseTooLargeError, TransportError } from '../../core/errors.ts';
import { readEvents, readMessages, type SseOptions, type StreamPosition } from './sse.ts';

const ENDPOINT = 'http://localhost/mcp';

function options(overrides: Partial<SseOptions> = {}): SseOptions {
  return {
    url: ENDPOINT,
    maxEventSize: 1_024,
    signal: new AbortController().signal,
    position: { lastEventId: undefined, retryMs: undefined },
    ...overrides,
  };
}

/** A response body that yields the given chunks (strings are UTF-8 encoded), then ends. */
async function* body(...chunks: Array<string | Buffer>): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('readEvents', () => {
  it('reassembles an event split inside a field name', async () => {
    const events = await collect(readEvents(body('da', 'ta: hel', 'lo\n', '\n'), options()));
    expect(events.map((e) => e.data)).toEqual(['hello']);
  });

  it('reassembles a multi-byte UTF-8 character split across chunks', async () => {
    const bytes = Buffer.from('data: h€llo\n\n');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of '€'
    const events = await collect(
      readEvents(body(bytes.subarray(0, cut), bytes.subarray(cut)), options()),
    );
    expect(events.map((e) => e.data)).toEqual(['h€llo']);
  });

  it('joins multi-line data with \\n', async () => {
    const events = await collect(readEvents(body('data: one\ndata: two\n\n'), options()));
    expect(events.map((e) => e.data)).toEqual(['one\ntwo']);
  });

  it('ignores comments', async () => {
    const events = await collect(readEvents(body(': keep-alive\n\n', 'data: x\n\n'), options()));
    expect(events.map((e) => e.data)).toEqual(['x']);
  });

  it('records the last event id and the retry hint in the position', async () => {
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    await collect(
      readEvents(
        body('retry: 1500\n', 'id: a1\ndata: x\n\nid: a2\ndata: y\n\n'),
        options({ position }),
      ),
    );
    expect(position).toEqual({ lastEventId: 'a2', retryMs: 1500 });
  });

  it('accepts an event whose data is exactly maxEventSize characters, however it is chunked', async () => {
    const data = 'x'.repeat(100);
    const whole = readEvents(body(`data: ${data}\n\n`), options({ maxEventSize: 100 }));
    const split = readEvents(body(`data: ${data}`, '\n\n'), options({ maxEventSize: 100 }));
    expect((await collect(whole)).map((e) => e.data)).toEqual([data]);
    expect((await collect(split)).map((e) => e.data)).toEqual([data]);
  });

  it('fails with ResponseTooLargeError when one event exceeds maxEventSize', async () => {
    const events = readEvents(body(`data: ${'x'.repeat(101)}\n\n`), options({ maxEventSize: 100 }));
    const error = await collect(events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limit: 100, url: ENDPOINT });
  });

  it('fails with ResponseTooLargeError when a multi-line event grows past maxEventSize', async () => {
    const line = `data: ${'x'.repeat(40)}\n`;
    const events = readEvents(body(line, line, line), options({ maxEventSize: 100 }));
    await expect(collect(events)).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });

  it('fails with ResponseTooLargeError when a line never ends and outgrows maxEventSize', async () => {
    const chunks = Array.from({ length: 20 }, () => 'x'.repeat(10));
    const events = readEvents(body('data: ', ...chunks), options({ maxEventSize: 100 }));
    const error = await collect(events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('turns a body that fails mid-stream into a TransportError, after the events before it', async () => {
    async function* broken(): AsyncGenerator<Buffer> {
      yield Buffer.from('data: first\n\n');
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    }
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of readEvents(broken(), options())) seen.push(event.data);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['first']);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'TRANSPORT', url: ENDPOINT });
  });

  it("rethrows the signal's reason when the body fails because the call was aborted", async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    async function* aborted(): AsyncGenerator<Buffer> {
      yield Buffer.from(': keep-alive\n\n');
      controller.abort(reason);
      throw new Error('aborted');
    }
    const events = readEvents(aborted(), options({ signal: controller.signal }));
    await expect(collect(events)).rejects.toBe(reason);
  });
});

describe('readMessages', () => {
  it('yields the JSON-RPC message in each event', async () => {
    const messages = await collect(
      readMessages(body(`data: ${ping(1)}\n\n`, `data: ${ping(2)}\n\n`), options()),
    );
    expect(messages).toEqual([
      { kind: 'request', message: JSON.parse(ping(1)) },
      { kind: 'request', message: JSON.parse(ping(2)) },
    ]);
  });

  it('skips priming events with empty data, yet records their id for resumption', async () => {
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    const stream = body('id: prime\ndata:\n\n', `data: ${ping(2)}\n\n`);
    const messages = await collect(readMessages(stream, options({ position })));
    expect(messages.map((m) => m.message)).toEqual([JSON.parse(ping(2))]);
    expect(position.lastEventId).toBe('prime');
  });

  it('skips events whose type is not message', async () => {
    const stream = body(
      `event: ping\ndata: ${ping(1)}\n\n`,
      `event: message\ndata: ${ping(2)}\n\n`,
    );
    const messages = await collect(readMessages(stream, options()));
    expect(messages.map((m) => m.message)).toEqual([JSON.parse(ping(2))]);
  });

  it('yields every message of an array payload', async () => {
    const messages = await collect(
      readMessages(body(`data: [${ping(1)},${ping(2)}]\n\n`), options()),
    );
    expect(messages.map((m) => (m.message as { id: number }).id)).toEqual([1, 2]);
  });

  it('fails with MalformedMessageError on invalid JSON in data', async () => {
    const error = await collect(readMessages(body('data: {not json\n\n'), options())).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MalformedMessageError);
    expect(error).toMatchObject({
      code: 'MALFORMED_MESSAGE',
      url: ENDPOINT,
      bodyExcerpt: '{not json',
    });
  });

  it('fails with MalformedMessageError on JSON that is not a JSON-RPC message', async () => {
    const messages = readMessages(body('data: {"hello": 1}\n\n'), options());
    await expect(collect(messages)).rejects.toBeInstanceOf(MalformedMessageError);
  });
});
