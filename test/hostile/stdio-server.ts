/**
 * A tiny local MCP server for the hostile suite, run as `node -e SOURCE ARGS…`: it speaks just
 * enough of the stdio binding (initialize, tools/list, tools/call; -32601 for anything else) and
 * its tools report what the process was given, or misbehave:
 * - `env`: its own environment, as JSON text;
 * - `argv`: the arguments it was started with (after `node -e SOURCE` or `node FILE`), as JSON;
 * - `endless`: the start of a response, then `ENDLESS_MIB` MiB of one line that never ends,
 *   written as the pipe takes it, then nothing more.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StdioServer } from '@toolwire/client';

const SOURCE = String.raw`
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const text = (id, value) => send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: value }] } });
const tools = ['env', 'argv', 'endless'].map((name) => ({ name, inputSchema: { type: 'object' } }));
function endless(id) {
  const total = Number(process.env.ENDLESS_MIB || 64);
  const chunk = 'x'.repeat(1024 * 1024);
  let written = 0;
  process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(id) + ',"result":{"content":[{"type":"text","text":"');
  const more = () => {
    while (written < total) {
      written++;
      if (!process.stdout.write(chunk)) return void process.stdout.once('drain', more);
    }
  };
  more();
}
function handle(message) {
  if (message.id === undefined) return;
  const { id, method, params } = message;
  if (method === 'initialize') {
    return send({ jsonrpc: '2.0', id, result: {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'tiny', version: '1.0.0' },
    } });
  }
  if (method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools } });
  if (method === 'tools/call' && params.name === 'env') return text(id, JSON.stringify(process.env));
  if (method === 'tools/call' && params.name === 'argv') return text(id, JSON.stringify(process.argv.slice(process.argv[1] === __filename ? 2 : 1)));
  if (method === 'tools/call' && params.name === 'endless') return endless(id);
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
}
let pending = '';
process.stdin.setEncoding('utf8').on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});
`;

/** The tiny server with `args` after its source, and `env` on top of what the client passes. */
export function tinyStdio(args: string[] = [], env: Record<string, string> = {}): StdioServer {
  return { command: process.execPath, args: ['-e', SOURCE, ...args], env };
}

/**
 * The tiny server from a file in `dir` (so a shell, were one involved, would have nothing of the
 * source to trip on), with `args` after it.
 */
export function tinyStdioFile(dir: string, args: string[] = []): StdioServer {
  const path = join(dir, 'tiny-server.cjs');
  writeFileSync(path, SOURCE);
  return { command: process.execPath, args: [path, ...args] };
}

/** The same, as the words after `toolwire … --`. */
export function tinyStdioCommand(args: string[] = []): string[] {
  return [process.execPath, '-e', SOURCE, ...args];
}
