/**
 * The skills extension is declared to a local server as it is over HTTP: a tiny stdio server
 * writes the capabilities its `initialize` carried to stderr, where the client's `stderr` event
 * hears them.
 */
import { createMcpClient } from '@toolwire/client';
import { expect, test } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';

const SOURCE = String.raw`
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let end;
  while ((end = buffer.indexOf('\n')) >= 0) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === undefined) continue;
    if (message.method === 'initialize') {
      process.stderr.write('capabilities ' + JSON.stringify(message.params.capabilities) + '\n');
      send({ jsonrpc: '2.0', id: message.id, result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: {},
        serverInfo: { name: 'echo', version: '1' },
      } });
    } else {
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } });
    }
  }
});
`;

test('`skills: true` declares the extension in initialize over stdio', async () => {
  await using client = createMcpClient(
    { command: process.execPath, args: ['-e', SOURCE] },
    { skills: true, protocolVersion: '2025-11-25' },
  );
  const lines: string[] = [];
  client.on('stderr', (line) => lines.push(line));
  await client.connect();
  await waitFor(() => lines.some((line) => line.startsWith('capabilities ')));
  const line = lines.find((each) => each.startsWith('capabilities '))!;
  const capabilities = JSON.parse(line.slice('capabilities '.length)) as {
    extensions?: Record<string, unknown>;
  };
  expect(capabilities.extensions).toEqual({ 'io.modelcontextprotocol/skills': {} });
});
