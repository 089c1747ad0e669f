/**
 * The stdio floor: a raw newline-JSON pipe to the same child toolwire runs. Spawns the server,
 * writes one request per line, splits stdout on newlines, `JSON.parse`s each line and matches the
 * response by id. No validation, no timers, no restarts: the least a correct client can do.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MODERN_VERSION } from '../protocol.ts';
import { CLIENT_INFO, type Driver, type Session } from './driver.ts';

export const STDIO_SERVER = fileURLToPath(new URL('../stdio-server.ts', import.meta.url));

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Reply {
  id?: number;
  result?: unknown;
  error?: unknown;
}

/**
 * The pipe; `detached` starts the child as toolwire does on POSIX, leader of a process group (and
 * session) of its own, so that a whole tree can be ended: `stdio-raw-group.ts` measures what that
 * costs on its own.
 */
export function rawPipe({ detached }: { detached: boolean }): Driver {
  return {
    connect: () => connect(detached),
  };
}

async function connect(detached: boolean): Promise<Session> {
  const child = spawn(process.execPath, [STDIO_SERVER], {
    stdio: ['pipe', 'pipe', 'inherit'],
    detached,
  });
  const waiting = new Map<number, (reply: Reply) => void>();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let start = 0;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n', start)) {
      const reply = JSON.parse(buffered.slice(start, end)) as Reply;
      start = end + 1;
      if (reply.id === undefined) continue;
      waiting.get(reply.id)?.(reply);
      waiting.delete(reply.id);
    }
    buffered = buffered.slice(start);
  });
  let nextId = 0;
  const send = (method: string, params: object): Promise<Reply> => {
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } })}\n`,
      );
    });
  };
  await send('server/discover', {});
  return {
    async call(tool, args = {}) {
      const reply = await send('tools/call', { name: tool, arguments: args });
      if (reply.error) throw new Error(JSON.stringify(reply.error));
      return reply.result;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

export default rawPipe({ detached: false });
