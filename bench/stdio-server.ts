/**
 * The bench server over stdio: the same answers as `server.ts`, one JSON-RPC message per line on
 * stdin and stdout, for the clients that run a local server as a child process. Dual-era as the
 * binding describes: `server/discover` is answered (2026-07-28, served statelessly), and
 * `initialize` opens a legacy session. Precomputed answers, so the child's cost per call is a
 * `JSON.parse` of the request and one write. Exits when stdin ends.
 *
 * Run by the drivers as `node bench/stdio-server.ts`.
 */
import { ECHO_TEXT, LEGACY_VERSION, MODERN_VERSION, NOTIFY_COUNT, TOOLS } from './protocol.ts';

interface Message {
  id?: string | number;
  method?: string;
  params?: { name?: string; protocolVersion?: string; arguments?: Record<string, unknown> };
}

const SERVER_INFO = { name: 'toolwire-bench', version: '0.0.0' };
const CAPABILITIES = { tools: {} };

function responder(result: unknown): (id: string) => string {
  const tail = `,"result":${JSON.stringify(result)}}\n`;
  return (id) => `{"jsonrpc":"2.0","id":${id}${tail}`;
}

const toolResult = responder({ content: [{ type: 'text', text: ECHO_TEXT }], isError: false });
const listResult = responder({
  tools: Object.values(TOOLS).map((name) => ({
    name,
    description: name,
    inputSchema: { type: 'object' },
  })),
});
const discoverResult = responder({
  supportedVersions: [MODERN_VERSION, LEGACY_VERSION],
  capabilities: CAPABILITIES,
  _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
});
const initResult = responder({
  protocolVersion: LEGACY_VERSION,
  capabilities: CAPABILITIES,
  serverInfo: SERVER_INFO,
});
const emptyResult = responder({});
const notification = `${JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: 'x'.repeat(16) },
})}\n`;

function answer(message: Message): string | undefined {
  if (message.id === undefined) return undefined;
  const id = JSON.stringify(message.id);
  switch (message.method) {
    case 'server/discover':
      return discoverResult(id);
    case 'initialize':
      return initResult(id);
    case 'tools/list':
      return listResult(id);
    case 'ping':
      return emptyResult(id);
    case 'tools/call':
      if (message.params?.name === TOOLS.notify)
        return notification.repeat(NOTIFY_COUNT) + toolResult(id);
      return toolResult(id);
  }
  return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"not found"}}\n`;
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  let out = '';
  let start = 0;
  for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n', start)) {
    const line = buffered.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    out += answer(JSON.parse(line) as Message) ?? '';
  }
  buffered = buffered.slice(start);
  // One write per chunk read: the answers to a burst of requests go out together.
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
