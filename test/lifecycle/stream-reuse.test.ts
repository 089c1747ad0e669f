/**
 * What happens to a call's event stream once its response has been read: the connection goes
 * back to the pool when the server ends the stream (even a moment after the response), and a
 * stream the server keeps open does not hold its connection.
 *
 * A bare node:http server, because it keeps connections alive the way production servers do,
 * and counts the ones it accepts.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpClient } from '@toolwire/client';
import { Agent } from 'undici';
import { expect, test } from 'vitest';

type End = 'later' | 'never';

async function startStreamServer(end: End) {
  const open = new Set<ServerResponse>();
  let connections = 0;
  let calls = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(text) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      const reply = (result: object) => JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' });
        return void res.end(
          reply({
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'streams', version: '1.0.0' },
          }),
        );
      }
      if (message.method === 'tools/list') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(reply({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
      }
      if (message.method === 'tools/call') {
        calls += 1;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${reply({ content: [{ type: 'text', text: 'ok' }] })}\n\n`);
        // The end of the stream comes in a write of its own, after the client has its response.
        if (end === 'later') setTimeout(() => res.end(), 5);
        else open.add(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply({}));
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    connections: () => connections,
    calls: () => calls,
    [Symbol.asyncDispose]: async () => {
      for (const res of open) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// A pool of one connection makes every request wait for the one before it to let go of the
// socket, so the count of connections the server accepted says what became of each stream.
// No GET stream: it would take the connection for itself.

test('calls answered on event streams reuse one connection, even when the stream ends after the response', async () => {
  await using server = await startStreamServer('later');
  const agent = new Agent({ connections: 1 });
  try {
    await using client = createMcpClient(server.url, { dispatcher: agent, listen: false });
    for (let i = 0; i < 5; i++) {
      const result = await client.callTool('echo');
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    }
    expect(server.calls()).toBe(5);
    // Every stream was read to its end, none destroyed: the socket was never replaced.
    expect(server.connections()).toBe(1);
  } finally {
    await agent.destroy();
  }
});

test('a stream the server keeps open after the response does not hold its connection', async () => {
  await using server = await startStreamServer('never');
  const agent = new Agent({ connections: 1 });
  try {
    await using client = createMcpClient(server.url, { dispatcher: agent, listen: false });
    await client.callTool('echo');
    const second = await client.callTool('echo');
    expect(second.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.calls()).toBe(2);
    // The first stream was given up on, and its socket with it.
    expect(server.connections()).toBe(2);
  } finally {
    await agent.destroy();
  }
});
