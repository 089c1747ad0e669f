/**
 * Held: a server that answers a call with an event stream that never brings the answer meets the
 * client's bounds, at the defaults: endless comments and endless events that are not the
 * response end at the call's timeout; endless progress ends at `maxTimeoutMs`, however often it
 * pushes the deadline back; an event that never ends (one line, or data lines with no blank line
 * after them) and a JSON body that never ends are refused at the size limit. Each ends typed,
 * and the client holds none of what was sent.
 *
 * Already covered elsewhere, not repeated here: a whole event over `maxEventSize` and a whole
 * body over `maxResponseBytes` (test/faults/bad-input.test.ts), progress pushing the deadline
 * back and never past `maxTimeoutMs` with a well-behaved server (test/reference/calls.test.ts),
 * the seeded grammar of broken streams (test/soak/fuzz.test.ts).
 */
import { createMcpClient, ResponseTooLargeError, TimeoutError } from '@toolwire/client';
import { expect, test } from 'vitest';
import { MiB, peakGrowth } from './memory.ts';
import { flood, type RpcMessage, startMcpServer } from './servers.ts';

const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-store' };
const KiB = 1024;

const event = (message: unknown) => `data: ${JSON.stringify(message)}\n\n`;

/** A server whose every tools/call is answered by `stream`, from its status line on. */
function answeringCalls(
  stream: (message: RpcMessage, res: import('node:http').ServerResponse) => void,
) {
  return startMcpServer((message, res) => {
    if (message.method !== 'tools/call') return undefined;
    stream(message, res);
    return true;
  });
}

/** Runs a call against `url`, with the client's growth in memory while it runs. */
async function callWatched(url: string, options: Parameters<typeof createMcpClient>[1] = {}) {
  await using client = createMcpClient(url, { retry: { retries: 0, minDelayMs: 1 }, ...options });
  await client.listTools();
  return await peakGrowth(() =>
    client
      .callTool('call', {}, { onProgress: () => {} })
      .then(() => new Error('the call succeeded'))
      .catch((e: unknown) => e),
  );
}

test('endless comments: a TimeoutError at the call’s deadline, nothing held', async () => {
  // 64 MiB of keepalive comments, a kilobyte a line, as fast as the socket takes them.
  const comments = `: keepalive ${'k'.repeat(KiB - 14)}\n`.repeat(64);
  await using server = await answeringCalls((_message, res) => {
    res.writeHead(200, SSE);
    void flood(res, comments, 1_024);
  });
  const { outcome, growth } = await callWatched(`${server.origin}/mcp`, { timeoutMs: 2_000 });
  expect(outcome).toBeInstanceOf(TimeoutError);
  expect(growth, `${(growth / MiB).toFixed(1)} MiB held`).toBeLessThan(32 * MiB);
});

test('endless events that are not the response: a TimeoutError, nothing held', async () => {
  const log = event({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: 'n'.repeat(KiB) },
  }).repeat(16);
  await using server = await answeringCalls((_message, res) => {
    res.writeHead(200, SSE);
    // About 64 MiB of them, then the stream stays open.
    void flood(res, log, 4 * KiB);
  });
  const { outcome, growth } = await callWatched(`${server.origin}/mcp`, { timeoutMs: 2_000 });
  expect(outcome).toBeInstanceOf(TimeoutError);
  expect(growth, `${(growth / MiB).toFixed(1)} MiB held`).toBeLessThan(32 * MiB);
});

test('endless progress: it pushes the deadline back only up to maxTimeoutMs, then a TimeoutError', async () => {
  let sent = 0;
  await using server = await answeringCalls((message, res) => {
    const token = message.params?._meta?.['progressToken'];
    res.writeHead(200, SSE);
    // A burst of progress every 20 ms, far longer than maxTimeoutMs (bounded: 60 s at most).
    void flood(
      res,
      () => {
        let burst = '';
        for (let n = 0; n < 50; n++) {
          sent++;
          burst += event({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: token, progress: sent, message: 'p'.repeat(256) },
          });
        }
        return burst;
      },
      3_000,
      20,
    );
  });
  const { outcome, growth } = await callWatched(`${server.origin}/mcp`, {
    timeoutMs: 500,
    maxTimeoutMs: 2_500,
  });
  expect(outcome).toBeInstanceOf(TimeoutError);
  // Progress did keep coming, well past the call's own timeout.
  expect(sent).toBeGreaterThan(500);
  expect(growth, `${(growth / MiB).toFixed(1)} MiB held`).toBeLessThan(32 * MiB);
});

test('one event line that never ends: a ResponseTooLargeError at maxEventSize, nothing held', async () => {
  const filler = 'x'.repeat(64 * KiB);
  await using server = await answeringCalls((message, res) => {
    res.writeHead(200, SSE);
    res.write(
      `data: {"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"`,
    );
    // 96 MiB of it (24 times the default maxEventSize), then the stream stays open.
    void flood(res, filler, 96 * 16);
  });
  const { outcome, growth } = await callWatched(`${server.origin}/mcp`, { timeoutMs: 10_000 });
  expect(outcome).toBeInstanceOf(ResponseTooLargeError);
  expect(outcome).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  expect(growth, `${(growth / MiB).toFixed(1)} MiB held`).toBeLessThan(32 * MiB);
});

test('one event of data lines that never ends: a ResponseTooLargeError, nothing held', async () => {
  const lines = `data: ${'y'.repeat(KiB - 7)}\n`.repeat(64);
  await using server = await answeringCalls((_message, res) => {
    res.writeHead(200, SSE);
    // 96 MiB of data lines and never the blank line that would end the event.
    void flood(res, lines, 96 * 16);
  });
  const { outcome, growth } = await callWatched(`${server.origin}/mcp`, { timeoutMs: 10_000 });
  expect(outcome).toBeInstanceOf(ResponseTooLargeError);
  expect(growth, `${(growth / MiB).toFixed(1)} MiB held`).toBeLessThan(32 * MiB);
});

test('a JSON answer that never ends: a ResponseTooLargeError at maxResponseBytes, nothing held', async () => {
  const filler = 'z'.repeat(64 * KiB);
  await using server = await answeringCalls((message, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(
      `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"`,
    );
    void flood(res, filler, 96 * 16);
  });
  const { outcome, growth } = await callWatched(`${server.origin}/mcp`, { timeoutMs: 10_000 });
  expect(outcome).toBeInstanceOf(ResponseTooLargeError);
  // The body is read up to its limit (16 MiB by default) and no further.
  expect(growth, `${(growth / MiB).toFixed(1)} MiB held`).toBeLessThan(48 * MiB);
});
