/**
 * A call's event stream under a hostile server: resumes are paced and bounded, and a response
 * that arrives on another stream still reaches its caller.
 */
import { createMcpClient, StreamTruncatedError } from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import {
  sessionServer,
  sseBody,
  sseEvent,
  sseHeld,
  startFaultServer,
} from '../helpers/fault-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

const pinned = { listen: false, protocolVersion: '2025-11-25' } as const;

/** A server whose every stream asks for `retry: 0` and ends after one new event id, forever. */
function restlessServer() {
  let next = 0;
  const restless = () => {
    next += 1;
    return sseBody([`retry: 0\nid: r-${next}\ndata: \n\n`]);
  };
  return sessionServer((message) => (message.method === 'tools/call' ? restless() : undefined), {
    get: () => restless(),
  });
}

test("a server asking for retry: 0 with a new id on every event gets resumes no faster than the client's floor", async () => {
  const { handlers } = restlessServer();
  await using server = await startFaultServer(handlers);
  // The default floor (retry.minDelayMs, 200 ms) under a 1 s deadline: at most 5 waits.
  await using client = createMcpClient(server.url, pinned);
  await client.listTools();
  const error = await client.callTool('safe', {}, { timeoutMs: 1_000 }).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'TIMEOUT' });
  const gets = server.calls.filter((call) => call.method === 'GET');
  expect(gets.length).toBeGreaterThan(0);
  expect(gets.length).toBeLessThanOrEqual(6);
});

test('resumes per call are capped by retry.maxResumes', async () => {
  const { handlers } = restlessServer();
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, {
    ...pinned,
    retry: { minDelayMs: 1, maxDelayMs: 5, maxResumes: 3 },
  });
  const error = await client.callTool('unsafe', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StreamTruncatedError);
  expect(error).toMatchObject({ mayHaveRun: true, retryable: false });
  expect(server.calls.filter((call) => call.method === 'GET')).toHaveLength(3);
  expect(server.callsOf('tools/call')).toHaveLength(1);
});

test("a response that arrives on another call's stream reaches its caller while its own stream stays open", async () => {
  let heldId: string | number | undefined;
  const { handlers } = sessionServer((message) => {
    if (message.method !== 'tools/call') return undefined;
    if (message.params?.['name'] === 'unsafe') {
      heldId = message.id;
      return sseHeld([sseEvent('', 'h-1')]);
    }
    // The other call's stream carries the held call's response first, then its own.
    return sseBody([
      sseEvent({
        jsonrpc: '2.0',
        id: heldId,
        result: { content: [{ type: 'text', text: 'held' }] },
      }),
      sseEvent({ jsonrpc: '2.0', id: message.id, result: { content: [] } }),
    ]);
  });
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, pinned);
  await client.listTools();
  const held = client.callTool('unsafe', {}, { timeoutMs: 5_000 });
  await waitFor(() => heldId !== undefined);
  await expect(client.callTool('safe')).resolves.toMatchObject({ content: [] });
  await expect(held).resolves.toMatchObject({ content: [{ type: 'text', text: 'held' }] });
});

test('a response on the GET stream reaches a call whose own stream stays open', async () => {
  let callId: string | number | undefined;
  let deliver: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    deliver = resolve;
  });
  const { handlers } = sessionServer(
    (message) => {
      if (message.method !== 'tools/call') return undefined;
      callId = message.id;
      deliver();
      return sseHeld([sseEvent('', 'c-1')]);
    },
    {
      get: () => {
        const encoder = new TextEncoder();
        const stream = new ReadableStream<Uint8Array>({
          async start(controller) {
            await ready;
            const response = { jsonrpc: '2.0', id: callId, result: { content: [] } };
            controller.enqueue(encoder.encode(sseEvent(response, 'g-1')));
          },
        });
        return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
      },
    },
  );
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, { protocolVersion: '2025-11-25' });
  await client.listTools();
  await waitFor(() => server.calls.some((call) => call.method === 'GET'));
  await expect(client.callTool('unsafe', {}, { timeoutMs: 5_000 })).resolves.toMatchObject({
    content: [],
  });
});
