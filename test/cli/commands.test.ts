/**
 * The `toolwire` command against the bundled reference server, as a script runs it: no terminal,
 * `--json` for one document on stdout, and an exit status that says what went wrong.
 */

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLWIRE_BIN, toolwire, toolwireJson } from '../helpers/toolwire.ts';

let dualEra: ReferenceServer;
let legacyOnly: ReferenceServer;
let dir: string;

beforeAll(async () => {
  dualEra = await startReferenceServer({ dualEra: true });
  legacyOnly = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'toolwire-cli-'));
});

afterAll(async () => {
  await dualEra.close();
  await legacyOnly.close();
  await rm(dir, { recursive: true, force: true });
});

describe('inspect', () => {
  it('says how each dialect was reached and lists all the server offers', async () => {
    const { code, json } = await toolwireJson(['inspect', dualEra.url]);
    expect(code).toBe(0);
    expect(json).toMatchObject({
      target: dualEra.url,
      dialect: 'mcp-stateless',
      protocolVersion: '2026-07-28',
      negotiation: 'server/discover answered; 2026-07-28 is the newest revision both sides speak',
      serverInfo: { name: 'toolwire-reference-server' },
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    });
    expect(json['instructions']).toMatch(/^Deterministic MCP reference server/);
    const tools = json['tools'] as Array<{
      name: string;
      outputSchema?: unknown;
      execution?: unknown;
    }>;
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['ask_name', 'add', 'slow_task']),
    );
    expect(tools.find((tool) => tool.name === 'add')?.outputSchema).toBeDefined();
    expect(tools.find((tool) => tool.name === 'slow_task')?.execution).toEqual({
      taskSupport: 'optional',
    });
    expect(json['resources']).toHaveLength(15);
    expect(json['resourceTemplates']).toEqual([
      expect.objectContaining({ uriTemplate: 'ref://items/{id}' }),
    ]);
    expect((json['prompts'] as Array<{ name: string }>).map((prompt) => prompt.name)).toEqual([
      'greet',
      'summarize',
    ]);

    const legacy = await toolwireJson(['inspect', legacyOnly.url]);
    expect(legacy.json).toMatchObject({
      dialect: 'mcp-stateful',
      protocolVersion: '2025-11-25',
      negotiation: 'server/discover was not understood; initialize agreed on 2025-11-25',
    });
    expect((legacy.json['tools'] as unknown[]).length).toBe(22);

    const pinned = await toolwireJson(['inspect', dualEra.url, '--protocol', '2025-06-18']);
    expect(pinned.json).toMatchObject({
      dialect: 'mcp-stateful',
      protocolVersion: '2025-06-18',
      negotiation: 'pinned with --protocol 2025-06-18',
    });

    const sse = await toolwireJson(['inspect', legacyOnly.urls.sse]);
    expect(sse.json).toMatchObject({ dialect: 'mcp-sse', protocolVersion: '2024-11-05' });
    const lite = await toolwireJson(['inspect', legacyOnly.urls.mcpLite]);
    expect(lite.json).toMatchObject({ dialect: 'mcp-lite', resources: [], prompts: [] });
  });

  it('prints a report a person reads: the connection, then a table of each kind', async () => {
    const { code, stdout, stderr } = await toolwire(['inspect', dualEra.url]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('dialect       MCP, stateless, over HTTP\nrevision      2026-07-28\n');
    expect(stdout).toMatch(/\ntools \(24\)\n {2}NAME +HINTS +OUTPUT +TASK +DESCRIPTION\n/);
    expect(stdout).toMatch(/\n {2}add +read-only idempotent +schema +Adds two numbers/);
    expect(stdout).toMatch(/\n {2}task_required +required +Works for/);
    expect(stdout).toMatch(
      /\nprompts \(2\)\n {2}NAME +ARGUMENTS +DESCRIPTION\n {2}greet +name\* style +/,
    );
    // No terminal, no colours.
    expect(stdout).not.toContain('\u001b[');
  });
});

describe('call', () => {
  it('reads key=value words against the input schema, in both eras', async () => {
    for (const protocol of ['auto', 'legacy']) {
      const { code, json } = await toolwireJson([
        'call',
        dualEra.url,
        'add',
        'a=2',
        'b=40',
        '--protocol',
        protocol,
      ]);
      expect(code).toBe(0);
      expect(json).toMatchObject({ structuredContent: { sum: 42 }, isError: false });
    }
    const merged = await toolwireJson(['call', dualEra.url, 'add', '{"a":1,"b":1}', 'b=2']);
    expect(merged.json).toMatchObject({ structuredContent: { sum: 3 } });
    const fromArgs = await toolwireJson([
      'call',
      dualEra.url,
      'echo',
      '--args',
      '{"text":"hi there"}',
    ]);
    expect(fromArgs.json).toMatchObject({ content: [{ type: 'text', text: 'hi there' }] });
  });

  it('shows progress and a task as lines on stderr without a terminal; stdout gets the result', async () => {
    const progress = await toolwire(['call', dualEra.url, 'progress', 'steps=3', 'delayMs=20']);
    expect(progress).toMatchObject({ code: 0, stdout: 'done after 3 steps\n' });
    expect(progress.stderr).toBe('progress 1/3 step 1\nprogress 2/3 step 2\nprogress 3/3 step 3\n');

    const before = dualEra.tasks.length;
    const task = await toolwire([
      'call',
      dualEra.url,
      'slow_task',
      'ms=300',
      'text=later',
      'pollIntervalMs=50',
    ]);
    expect(task).toMatchObject({ code: 0, stdout: 'done: later\n' });
    expect(task.stderr).toMatch(/^task pending\n(task working\n)*task done\n$/);
    expect(dualEra.tasks.slice(before)).toEqual([
      expect.objectContaining({ tool: 'slow_task', era: 'modern', cancelled: false }),
    ]);

    const legacy = await toolwireJson(['call', legacyOnly.url, 'slow_task', 'ms=100', '--task']);
    expect(legacy.json).toMatchObject({ content: [{ type: 'text', text: 'done: ok' }] });
    expect(legacyOnly.tasks.at(-1)).toMatchObject({ tool: 'slow_task', era: 'legacy' });
  });

  it('prints streamed parts as they come (MCP-lite), without printing them again at the end', async () => {
    const { code, stdout } = await toolwire([
      'call',
      legacyOnly.urls.mcpLite,
      'generate_report',
      'topic=Q3',
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('Q3\n\nExecutive Summary\n\nRevenue for Q4 increased by 15%...\n');
  });

  it('saves images and audio to files and prints their paths', async () => {
    const out = join(dir, 'media');
    const { code, stdout } = await toolwire(['call', dualEra.url, 'media', '--out', out]);
    expect(code).toBe(0);
    const image = join(out, 'media-1.png');
    expect(stdout).toContain(`[image, image/png] saved to ${image}\n`);
    expect(stdout).toContain(`[audio, audio/wav] saved to ${join(out, 'media-2.wav')}\n`);
    expect(stdout).toContain('[link] ref://static/hello (hello, text/plain)\n');
    expect(stdout).toContain('[resource ref://static/hello, text/plain]\nhello, world\n');
    expect((await readFile(image)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('offers the roots given with --root, and the working directory by default', async () => {
    const roots = await toolwireJson([
      'call',
      dualEra.url,
      'list_roots',
      '--root',
      dir,
      '--root',
      tmpdir(),
    ]);
    expect(roots.json).toMatchObject({
      structuredContent: {
        roots: [{ uri: pathToFileURL(dir).href }, { uri: pathToFileURL(tmpdir()).href }],
      },
    });
    const here = await toolwireJson(['call', legacyOnly.url, 'list_roots'], { cwd: dir });
    expect(here.json).toMatchObject({
      structuredContent: { roots: [{ uri: pathToFileURL(dir).href }] },
    });
  });

  it("fails a server's question it cannot ask without a terminal, and says how to answer it", async () => {
    for (const url of [dualEra.url, legacyOnly.url]) {
      const form = await toolwireJson(['call', url, 'elicit', 'message=Your name?']);
      expect(form.code).toBe(5);
      expect(form.json).toMatchObject({
        error: {
          exitCode: 5,
          message:
            'the server asked for a form ("Your name?"), and there is no terminal to ask it in: run the command in a terminal, or pass --yes to accept its defaults',
        },
      });
      const yes = await toolwireJson(['call', url, 'elicit', 'message=Your name?', '--yes']);
      expect(yes.json).toMatchObject({
        error: {
          message: expect.stringContaining('(--yes takes the defaults, but name has none)'),
        },
      });
      const sampling = await toolwire(['call', url, 'sample', 'prompt=Say hi']);
      expect(sampling.code).toBe(5);
      expect(sampling.stderr).toContain(
        "the server asked for a model's answer (sampling), and there is no terminal to ask it in",
      );
    }
  });

  it('answers a form with its defaults under --yes', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'Ada' },
        language: { type: 'string', enum: ['Go', 'Rust'], default: 'Rust' },
        note: { type: 'string' },
      },
      required: ['name', 'language'],
    };
    for (const url of [dualEra.url, legacyOnly.url]) {
      const { code, json } = await toolwireJson([
        'call',
        url,
        'elicit',
        'message=About you',
        `requestedSchema:=${JSON.stringify(schema)}`,
        '--yes',
      ]);
      expect(code).toBe(0);
      expect(json).toMatchObject({
        structuredContent: {
          answers: [{ action: 'accept', content: { name: 'Ada', language: 'Rust' } }],
        },
      });
    }
  });
});

describe('read and prompt', () => {
  it('reads text resources, saves binary ones, and fills in prompts', async () => {
    const hello = await toolwireJson(['read', dualEra.url, 'ref://static/hello']);
    expect(hello.json).toMatchObject({
      contents: [{ uri: 'ref://static/hello', text: 'hello, world' }],
    });
    const out = join(dir, 'blob');
    const blob = await toolwire(['read', legacyOnly.url, 'ref://static/blob', '--out', out]);
    expect(blob.stdout).toBe(
      `[resource ref://static/blob, application/octet-stream] saved to ${join(out, 'resource-1.bin')}\n`,
    );
    expect([...(await readFile(join(out, 'resource-1.bin')))]).toEqual([...Array(16).keys()]);
    const item = await toolwire(['read', dualEra.url, 'ref://items/42']);
    expect(item).toMatchObject({ code: 0, stdout: expect.stringContaining('\nitem 42\n') });

    const prompt = await toolwireJson(['prompt', dualEra.url, 'greet', 'name=Ada', 'style=pirate']);
    expect(prompt.json).toMatchObject({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Greet Ada the way a pirate would.' } },
      ],
    });
    const missing = await toolwire(['prompt', dualEra.url, 'greet']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('greet needs name=…'),
    });
  });
});

describe('targets from an mcpServers file, and headers', () => {
  it('uses the named entry, its headers and -H on top; never prints a header value', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          reference: {
            url: dualEra.url,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a config file's placeholder
            headers: { 'X-Team': 'blue', Authorization: 'Bearer ${SECRET_TOKEN}' },
          },
          local: { command: 'node', args: ['server.js'] },
        },
      }),
    );
    const env = { ...process.env, SECRET_TOKEN: 's3cret-value' };
    const before = dualEra.log.length;
    const { code, json } = await toolwireJson(
      ['call', 'echo', 'text=hi', '--config', file, '--server', 'reference', '-H', 'X-Extra: 1'],
      { env },
    );
    expect(code).toBe(0);
    expect(json).toMatchObject({ content: [{ text: 'hi' }] });
    const sent = dualEra.log.slice(before).map((request) => request.headers);
    expect(sent.length).toBeGreaterThan(0);
    for (const headers of sent) {
      expect(headers).toMatchObject({
        'x-team': 'blue',
        authorization: 'Bearer s3cret-value',
        'x-extra': '1',
      });
    }

    const choose = await toolwire(['inspect', '--config', file], { env });
    expect(choose).toMatchObject({ code: 2 });
    expect(choose.stderr).toContain(
      `${file} lists 2 servers; choose one with --server (reference, local)`,
    );

    // The same secret, sent to a server that is not there: the failure never shows it.
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          gone: {
            url: 'http://127.0.0.1:9/mcp',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a config file's placeholder
            headers: { Authorization: 'Bearer ${SECRET_TOKEN}' },
          },
        },
      }),
    );
    const gone = await toolwire(['inspect', '--config', file, '--json'], { env });
    expect(gone.code).toBe(3);
    expect(gone.stdout + gone.stderr).not.toContain('s3cret-value');
  });
});

describe('local servers (stdio)', () => {
  const manifest = createRequire(import.meta.url).resolve(
    '@toolwire/reference-server/package.json',
  );
  const reference = join(dirname(manifest), 'dist', 'cli.js');
  const local = (...args: string[]) => ['--', process.execPath, reference, '--stdio', ...args];

  it('inspects and calls a server started as a child process, in both eras', async () => {
    const inspected = await toolwireJson(['inspect', ...local()]);
    expect(inspected).toMatchObject({
      code: 0,
      json: { transport: 'stdio', dialect: 'mcp-stateless', protocolVersion: '2026-07-28' },
    });
    // Options go before the --: what follows it is the server's command line.
    const legacy = await toolwireJson(['call', 'add', 'a=2', 'b=40', ...local('--era', 'legacy')]);
    expect(legacy).toMatchObject({ code: 0, json: { structuredContent: { sum: 42 } } });
    const shown = await toolwire(['inspect', ...local('--era', 'legacy')]);
    expect(shown.stdout).toContain(
      'dialect       MCP, with a session, over stdio (a local process)',
    );
  });

  it('starts the command of an mcpServers entry, with its env', async () => {
    const file = join(dir, 'local.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          reference: {
            command: process.execPath,
            args: [reference, '--stdio'],
            env: { TOOLWIRE_EXAMPLE: 'set' },
          },
        },
      }),
    );
    const { code, json } = await toolwireJson(['call', 'echo', 'text=local', '--config', file]);
    expect({ code, json }).toMatchObject({ code: 0, json: { content: [{ text: 'local' }] } });
    const refused = await toolwire(['inspect', '--config', file, '-H', 'X-A: 1']);
    expect(refused).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('-H sets HTTP headers'),
    });
  });
});

describe('pipes', () => {
  it('stops quietly when the reader closes the pipe early (toolwire inspect URL | head -1)', async () => {
    const child = spawn(process.execPath, [TOOLWIRE_BIN, 'inspect', dualEra.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Like head: read the first chunk, then close the pipe.
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('exit status', () => {
  it('tells a tool failure, usage, connection, server and interruption apart', async () => {
    const failed = await toolwireJson(['call', dualEra.url, 'fail', 'message=boom']);
    expect(failed).toMatchObject({ code: 1, json: { isError: true, content: [{ text: 'boom' }] } });

    const usage = [
      [
        ['call', dualEra.url, 'nope'],
        `${dualEra.url} has no tool "nope" (it has regional, echo, add,`,
      ],
      [['call', dualEra.url, 'add', 'a=two'], 'a must be number, got "two"'],
      [['call', dualEra.url, 'add', 'a=1'], 'add needs b=<number>'],
      [['call', 'add'], '"add" is not an http(s) URL'],
      [
        ['inspect'],
        'name a server: a URL, registry:NAME, a card URL, --config FILE --server NAME, or -- COMMAND ARGS…',
      ],
      [
        ['inspect', dualEra.url, '--protocol', '1999-01-01'],
        '--protocol takes auto, modern, legacy, 2026-07-28, 2025-11-25',
      ],
      [['frobnicate'], "unknown command 'frobnicate'"],
    ] as const;
    for (const [args, message] of usage) {
      const run = await toolwire(args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain(message);
    }

    const refused = await toolwireJson(['inspect', 'http://127.0.0.1:9/mcp']);
    expect(refused).toMatchObject({ code: 3, json: { error: { exitCode: 3, code: 'TRANSPORT' } } });

    const notFound = await toolwireJson(['read', dualEra.url, 'ref://nope']);
    expect(notFound).toMatchObject({ code: 4, json: { error: { exitCode: 4 } } });
    // Eleven commands one after another, each a process of its own: a bound for a loaded host.
  }, 90_000);
});
