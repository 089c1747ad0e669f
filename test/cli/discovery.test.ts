/**
 * The command line's discovery: `toolwire discover DOMAIN`, `registry:NAME` and a card URL as
 * targets (with `--registry` and `--input`), and `toolwire add NAME --config FILE`, against a
 * local domain and a local registry built from the published shapes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Domain, startDomain } from '../discovery/domain.ts';
import { toolwire, toolwireJson } from '../helpers/toolwire.ts';

let server: ReferenceServer;
let registry: Domain;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer();
  registry = await startDomain();
  dir = await mkdtemp(join(tmpdir(), 'toolwire-cli-discovery-'));
  const { pathname } = new URL(server.url);
  registry.docs.set('/v0.1/servers/io.github.acme%2Fweather/versions/latest', {
    body: {
      server: {
        name: 'io.github.acme/weather',
        version: '1.0.0',
        description: 'Weather',
        remotes: [
          {
            type: 'streamable-http',
            url: `{baseUrl}${pathname}`,
            variables: { baseUrl: { isRequired: true } },
            headers: [{ name: 'X-Api-Key', isRequired: true, isSecret: true }],
          },
        ],
      },
      _meta: {},
    },
  });
  registry.docs.set('/mcp/server-card', {
    body: {
      name: 'com.example/card',
      description: 'C',
      remotes: [{ type: 'streamable-http', url: server.url }],
    },
  });
  registry.docs.set('/.well-known/ai-catalog.json', {
    body: {
      specVersion: '1.0',
      entries: [
        { identifier: 'urn:x:skill', type: 'application/agentskill+zip', url: '/skill.zip' },
        {
          identifier: 'urn:x:mcp',
          type: 'application/mcp-server-card+json',
          url: '/mcp/server-card',
        },
      ],
    },
  });
});

afterAll(async () => {
  await server.close();
  await registry.close();
  await rm(dir, { recursive: true, force: true });
});

test('discover DOMAIN lists the servers its catalog names, skipping other artifacts', async () => {
  const { code, json } = await toolwireJson(['discover', registry.origin]);
  expect(code).toBe(0);
  expect(json).toMatchObject({
    origin: registry.origin,
    servers: [{ card: { name: 'com.example/card' }, via: 'ai-catalog' }],
  });
  const text = await toolwire(['discover', registry.origin]);
  expect(text.stdout).toContain('com.example/card');
});

test('registry:NAME is a target: its inputs from --input, its secret header sent', async () => {
  const { origin } = new URL(server.url);
  const before = server.log.length;
  const { code, json } = await toolwireJson([
    'call',
    'registry:io.github.acme/weather',
    'echo',
    'text=via the registry',
    '--registry',
    registry.origin,
    '--input',
    `baseUrl=${origin}`,
    '--input',
    'header:X-Api-Key=k-secret',
  ]);
  expect(code).toBe(0);
  expect(JSON.stringify(json)).toContain('via the registry');
  expect(server.log.slice(before).every((r) => r.headers['x-api-key'] === 'k-secret')).toBe(true);
});

test('a required input missing: exit 5, naming the input', async () => {
  const { origin } = new URL(server.url);
  const run = await toolwire([
    'inspect',
    'registry:io.github.acme/weather',
    '--registry',
    registry.origin,
    '--input',
    `baseUrl=${origin}`,
  ]);
  expect(run.code).toBe(5);
  expect(run.stderr).toContain('header:X-Api-Key');
});

test('a card URL is a target', async () => {
  const { code } = await toolwireJson([
    'call',
    `${registry.origin}/mcp/server-card`,
    'echo',
    'text=card',
  ]);
  expect(code).toBe(0);
});

test('add NAME --config FILE writes an mcpServers entry; the secret left as an environment reference', async () => {
  const { origin } = new URL(server.url);
  const file = join(dir, 'mcp.json');
  await writeFile(file, JSON.stringify({ mcpServers: { other: { command: 'x' } }, theme: 'dark' }));
  const { code } = await toolwireJson([
    'add',
    'io.github.acme/weather',
    '--config',
    file,
    '--registry',
    registry.origin,
    '--input',
    `baseUrl=${origin}`,
  ]);
  expect(code).toBe(0);
  const written = JSON.parse(await readFile(file, 'utf8'));
  expect(written).toEqual({
    mcpServers: {
      other: { command: 'x' },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the file holds a literal ${ENV} reference
      weather: { type: 'http', url: server.url, headers: { 'X-Api-Key': '${X_API_KEY}' } },
    },
    theme: 'dark',
  });
  // The entry is one toolwire itself reads back, the reference filled from the environment.
  const call = await toolwireJson(
    ['call', '--config', file, '--server', 'weather', 'echo', 'text=added'],
    {
      env: { ...process.env, X_API_KEY: 'from-env' },
    },
  );
  expect(call.code).toBe(0);
  expect(server.log.at(-1)?.headers['x-api-key']).toBe('from-env');
  const again = await toolwire([
    'add',
    'io.github.acme/weather',
    '--config',
    file,
    '--registry',
    registry.origin,
    '--input',
    `baseUrl=${origin}`,
  ]);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain('already has a server named weather');
});
