/** The stdio server in process, over a pair of in-memory pipes. */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { initializeParams, type RpcMessage } from '../testing/client.ts';
import type { StdioFaults } from './faults.ts';
import { type StdioEra, type StdioServer, serveStdio } from './serve.ts';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const running: StdioServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

function start(era: StdioEra = 'dual', faults: StdioFaults = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  const exits: number[] = [];
  const logs: string[] = [];
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
  });
  const server = serveStdio(input, output, {
    era,
    faults,
    exit: (code) => exits.push(code),
    log: (line) => logs.push(line),
  });
  running.push(server);
  const messages = () =>
    lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as RpcMessage];
      } catch {
        return [];
      }
    });
  const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
  const answer = async (id: number | string): Promise<RpcMessage> => {
    for (let i = 0; i < 500; i++) {
      const found = messages().find((message) => message.id === id && !message.method);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no answer to ${id}`);
  };
  return { input, server, lines, exits, logs, messages, send, answer };
}

async function initialized(stdio: ReturnType<typeof start>, capabilities = {}) {
  stdio.send({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { ...initializeParams('2025-11-25'), capabilities },
  });
  await stdio.answer('init');
  stdio.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

describe('serveStdio', () => {
  it('dual era: server/discover describes it, and a modern call is served statelessly', async () => {
    const stdio = start();
    stdio.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    expect((await stdio.answer(1)).result).toMatchObject({
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
    });
    stdio.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: META },
    });
    expect((await stdio.answer(2)).result).toMatchObject({
      structuredContent: { sum: 5 },
      resultType: 'complete',
    });
  });

  it('dual era: initialize opens a legacy session whose server requests go out on stdout', async () => {
    const stdio = start();
    await initialized(stdio);
    stdio.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ping_client' } });
    let ping: RpcMessage | undefined;
    for (let i = 0; i < 500 && !ping; i++) {
      ping = stdio.messages().find((message) => message.method === 'ping');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    stdio.send({ jsonrpc: '2.0', id: ping?.id, result: {} });
    expect((await stdio.answer(3)).result).toMatchObject({
      content: [{ type: 'text', text: 'client answered ping' }],
    });
  });

  it('legacy era: server/discover is an unknown method', async () => {
    const stdio = start('legacy');
    stdio.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    expect((await stdio.answer(1)).error?.code).toBe(-32601);
  });

  it('modern era: initialize is refused with the versions it speaks', async () => {
    const stdio = start('modern');
    stdio.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: initializeParams('2025-11-25'),
    });
    expect((await stdio.answer(1)).error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'] },
    });
  });

  it('subscriptions/listen stays open and tags what it delivers; cancelling ends it', async () => {
    const stdio = start('modern');
    stdio.send({
      jsonrpc: '2.0',
      id: 'listen',
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: META },
    });
    stdio.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'toggle_tool', _meta: META },
    });
    await stdio.answer(2);
    const changed = stdio
      .messages()
      .find((message) => message.method === 'notifications/tools/list_changed');
    expect(changed?.params?.['_meta']).toEqual({
      'io.modelcontextprotocol/subscriptionId': 'listen',
    });
    stdio.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'listen' },
    });
  });

  it('notifications/cancelled stops a modern request, which gets no answer', async () => {
    const stdio = start('modern');
    stdio.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 60_000 }, _meta: META },
    });
    stdio.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    stdio.send({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: META } });
    await stdio.answer(8);
    expect(stdio.messages().some((message) => message.id === 7)).toBe(false);
  });

  it('fault exit-on-unknown: any request before initialize ends the process', async () => {
    const stdio = start('legacy', { exitOnUnknown: true });
    stdio.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    for (let i = 0; i < 500 && stdio.exits.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(stdio.exits).toEqual([1]);
  });

  it('fault silent-probe: server/discover goes unanswered, initialize still works', async () => {
    const stdio = start('dual', { silentProbe: true });
    stdio.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    await initialized(stdio);
    expect(stdio.messages().some((message) => message.id === 1)).toBe(false);
  });

  it('faults crash-on, huge-line and garbage', async () => {
    const stdio = start('legacy', { crashOn: 'echo', hugeLine: 100_000, garbage: true });
    await initialized(stdio);
    stdio.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await stdio.answer(2);
    expect(stdio.lines[0]).toContain('not JSON-RPC');
    expect(stdio.lines.some((line) => line.length > 100_000)).toBe(true);
    stdio.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo' } });
    for (let i = 0; i < 500 && stdio.exits.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(stdio.exits).toEqual([70]);
  });

  it('ends when stdin ends', async () => {
    const stdio = start();
    stdio.input.end();
    await stdio.server.ended;
  });
});
