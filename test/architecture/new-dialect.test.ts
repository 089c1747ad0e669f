/**
 * A new dialect is its folder and one line in `dialects/registry.ts`: nothing else in the client
 * names a dialect. The client's sources are copied inside the package (so its dependencies
 * resolve), a throwaway dialect is written beside the others, one line registers it, and a client
 * from the copy negotiates it against a server that speaks it, by name and by probing. The copy
 * must differ from the sources by that folder and that line alone.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../../packages/client', import.meta.url));
const SOURCES = join(PACKAGE, 'src');

/** The one line that registers the dialect. */
const LINE = "export { descriptor as echo } from './echo/descriptor.ts';";

/** The throwaway dialect: JSON over HTTP, GET `{url}/hello`, GET `{url}/tools`, POST `{url}/call`. */
const ECHO: Record<string, string> = {
  'descriptor.ts': `
import { defineDialect } from '../descriptor.ts';
import type { Shared } from '../shared.ts';

const dialect = () => import('./index.ts');

export const descriptor = defineDialect({
  name: 'echo',
  era: undefined,
  runsOn: ['http'],
  protocols: ['auto'],
  probes: [{ on: 'http', rank: 5, run: async (context, config) => (await dialect()).probe(context, config) }],
  resume: async (context, config) => (await dialect()).probe(context, config),
  configure: (shared: Shared) => ({ url: shared.options.url, dispatcher: shared.dispatcher! }),
});
`,
  'index.ts': `
import { request, type Dispatcher } from 'undici';
import type { Outcome } from '../../core/outcome.ts';
import type { Dialect, Operation, SendContext } from '../dialect.ts';
import type { ProbeContext } from '../probe.ts';

interface EchoConfig { url: string; dispatcher: Dispatcher }

async function ask(config: EchoConfig, path: string, signal: AbortSignal, body?: unknown) {
  const answer = await request(config.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher: config.dispatcher,
    signal,
  });
  const json = (await answer.body.json()) as Record<string, unknown>;
  return answer.statusCode === 200 ? json : undefined;
}

export async function probe(context: ProbeContext, config: EchoConfig): Promise<Dialect | undefined> {
  const hello = await ask(config, '/hello', context.deadline.signal).catch(() => undefined);
  if (typeof hello?.['echo'] !== 'string') {
    context.misses.push('GET /hello: not an echo server');
    return undefined;
  }
  await context.remember({ dialect: 'echo', version: hello['echo'] });
  return new EchoDialect(config, hello['echo']);
}

class EchoDialect implements Dialect {
  readonly name = 'echo';
  readonly server;
  readonly #config: EchoConfig;
  constructor(config: EchoConfig, version: string) {
    this.#config = config;
    this.server = {
      protocolVersion: version,
      serverInfo: { name: 'echo', version },
      capabilities: { tools: {} },
      instructions: undefined,
    };
  }
  async send(operation: Operation, context: SendContext): Promise<Outcome> {
    const signal = context.deadline.signal;
    if (operation.method === 'tools/list') {
      return { kind: 'complete', result: (await ask(this.#config, '/tools', signal))! };
    }
    return { kind: 'complete', result: (await ask(this.#config, '/call', signal, operation.params))! };
  }
  adapt = (operation: Operation) => operation;
  screenTools = <T>(tools: T) => tools;
  freshFor = () => 0;
  async close() {}
}
`,
};

let copy: string;
let url: string;
const seen: string[] = [];
const server = createServer(async (request, response) => {
  seen.push(`${request.method} ${request.url}`);
  const [status, body] = await reply(request);
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});

/** The echo server: who it is, its one tool, and the tool's answer. */
async function reply(request: IncomingMessage): Promise<[number, unknown]> {
  if (request.url === '/echo/hello') return [200, { echo: '1' }];
  if (request.url === '/echo/tools') {
    return [200, { tools: [{ name: 'shout', inputSchema: { type: 'object' } }] }];
  }
  if (request.url === '/echo/call' && request.method === 'POST') {
    const { arguments: args } = JSON.parse(await text(request));
    return [200, { content: [{ type: 'text', text: String(args.text).toUpperCase() }] }];
  }
  return [404, { error: 'not here' }];
}

async function text(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

beforeAll(async () => {
  copy = await mkdtemp(join(PACKAGE, '.tmp-dialect-'));
  await cp(SOURCES, join(copy, 'src'), { recursive: true });
  // The options read the package's version from ../../package.json.
  await cp(join(PACKAGE, 'package.json'), join(copy, 'package.json'));
  const folder = join(copy, 'src/dialects/echo');
  await mkdir(folder);
  for (const [name, source] of Object.entries(ECHO)) await writeFile(join(folder, name), source);
  const registry = join(copy, 'src/dialects/registry.ts');
  await writeFile(registry, `${await readFile(registry, 'utf8')}${LINE}\n`);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
});

afterAll(async () => {
  server.close();
  if (copy) await rm(copy, { recursive: true, force: true });
});

/** Every file under `root`, by its path below it. */
async function filesOf(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path), await readFile(path, 'utf8'));
  }
  return files;
}

test('the copy differs from the sources by the dialect folder and one line of the registry', async () => {
  const original = await filesOf(SOURCES);
  const copied = await filesOf(join(copy, 'src'));
  const added = [...copied.keys()].filter((path) => !original.has(path)).sort();
  const removed = [...original.keys()].filter((path) => !copied.has(path));
  const changed = [...original.keys()].filter(
    (path) => copied.has(path) && copied.get(path) !== original.get(path),
  );
  expect(added).toEqual(['dialects/echo/descriptor.ts', 'dialects/echo/index.ts']);
  expect(removed).toEqual([]);
  expect(changed).toEqual(['dialects/registry.ts']);
  const before = original.get('dialects/registry.ts')!.split('\n');
  const after = copied.get('dialects/registry.ts')!.split('\n');
  expect(after.filter((line) => !before.includes(line))).toEqual([LINE]);
  expect(after.filter((line) => line !== LINE)).toEqual(before);
});

test('a client from the copy speaks the new dialect when named, and finds it by probing', async () => {
  const client = (await import(join(copy, 'src/index.ts'))) as typeof import('@toolwire/client');
  expect(client.DIALECTS).toContain('echo');

  const named = client.createMcpClient(url, { dialect: 'echo' as never });
  try {
    const result = await named.callTool('shout', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'HI' }]);
    expect(named.dialect).toBe('echo');
  } finally {
    await named.close();
  }

  const verdicts = client.memoryVerdictStore();
  const probed = client.createMcpClient(url, { verdicts });
  try {
    expect(await probed.listTools()).toMatchObject([{ name: 'shout' }]);
    expect(probed.dialect).toBe('echo');
    expect(await verdicts.get(url)).toEqual({ dialect: 'echo', version: '1' });
  } finally {
    await probed.close();
  }
  // No MCP probe was sent: the new dialect's rank put it first.
  expect(seen.filter((request) => request.startsWith('POST'))).toEqual(['POST /echo/call']);
});
