/**
 * Skills over MCP (SEP-2640) through the client, against the reference server in both eras: the
 * extension declared, listings that read no file, SKILL.md verified on load, files fetched only
 * when asked and verified, and each hostile skill refused with nothing of it returned.
 */
import { createMcpClient, type McpError, SkillVerificationError } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';

const SKILLS = 'io.modelcontextprotocol/skills';
const GREETING = 'skill://reference/greeting/SKILL.md';

const ERAS = [
  ['legacy', (server: ReferenceServer) => server.url],
  ['2026-07-28', (server: ReferenceServer) => server.urls.modern],
] as const;

/** The uris the server was asked to read, in order. */
function reads(server: ReferenceServer): string[] {
  return posts(server, 'resources/read').map(
    (entry) => (entry.body as { params: { uri: string } }).params.uri,
  );
}

async function refusal(promise: Promise<unknown>): Promise<SkillVerificationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SkillVerificationError);
  return error as SkillVerificationError;
}

test('the extension is declared when the application enables skills, in both eras', async () => {
  await using server = await startReferenceServer();
  await using legacy = createMcpClient(server.url, { skills: true });
  await legacy.connect();
  const [initialize] = posts(server, 'initialize');
  expect(
    (initialize!.body as { params: { capabilities: { extensions: object } } }).params.capabilities
      .extensions,
  ).toEqual({ [SKILLS]: {} });

  await using modern = createMcpClient(server.urls.modern, { skills: true });
  await modern.listSkills();
  const [list] = posts(server, 'skills/list').slice(-1);
  const meta = (list!.body as { params: { _meta: Record<string, { extensions: object }> } }).params
    ._meta;
  expect(meta['io.modelcontextprotocol/clientCapabilities']!.extensions).toMatchObject({
    [SKILLS]: {},
  });
});

test('without `skills: true` the skill methods are a usage error and nothing is declared', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await expect(client.listSkills()).rejects.toThrow(TypeError);
  expect(posts(server, 'skills/list')).toHaveLength(0);
  // A mistyped option is an error too.
  expect(() => createMcpClient(server.url, { skills: 'yes' as unknown as boolean })).toThrow(
    TypeError,
  );
});

test.each(ERAS)(
  '%s: listSkills follows every page, reads no file, and is cached',
  async (_era, url) => {
    await using server = await startReferenceServer({ pageSize: 2 });
    await using client = createMcpClient(url(server), { skills: true });
    const skills = await client.listSkills();
    expect(skills.map((skill) => skill.name)).toEqual(['greeting', 'toolbox', 'live']);
    expect(skills.every((skill) => skill.server === url(server))).toBe(true);
    expect(posts(server, 'skills/list')).toHaveLength(2);
    expect(reads(server)).toEqual([]);
    // ttlMs is 60 s: a second listing is the first.
    expect(await client.listSkills()).toBe(skills);
    expect(posts(server, 'skills/list')).toHaveLength(2);
  },
);

test.each(ERAS)(
  '%s: loading reads SKILL.md alone; a file is read when asked, verified',
  async (_era, url) => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(url(server), { skills: true });
    const [greeting] = await client.listSkills();
    const loaded = await client.loadSkill(greeting!);
    expect(reads(server)).toEqual([GREETING]);
    expect(loaded.verified).toBe(true);
    expect(loaded.body).toContain('Run scripts/hello.sh');
    // Reported for the application to approve, never acted on.
    expect(loaded.allowedTools).toEqual(['echo', 'add']);
    expect(loaded.files).toEqual(['scripts/hello.sh', 'assets/wave.bin']);

    const script = await loaded.readFile('scripts/hello.sh');
    expect(script.text).toBe('echo "hello, $1"\n');
    const blob = await loaded.readFile('assets/wave.bin');
    expect([...blob.bytes]).toEqual([0, 1, 2, 253, 254, 255]);
    expect(reads(server)).toEqual([
      GREETING,
      'skill://reference/greeting/scripts/hello.sh',
      'skill://reference/greeting/assets/wave.bin',
    ]);
  },
);

test('a skill is loaded by its uri alone, through skills/get, without a listing', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { skills: true });
  const loaded = await client.loadSkill('skill://reference/toolbox/SKILL.md');
  expect(posts(server, 'skills/list')).toHaveLength(0);
  expect(posts(server, 'skills/get')).toHaveLength(1);
  // A nested skill is reported, to be approved on its own; it is a supporting file here.
  expect(loaded.nestedSkills).toEqual(['skill://reference/toolbox/helper/SKILL.md']);
  expect((await loaded.readFile('helper/SKILL.md')).text).toContain('# Helper');
});

test('an entry another client listed is refused: a read stays with the server that listed it', async () => {
  await using a = await startReferenceServer();
  await using b = await startReferenceServer();
  await using clientA = createMcpClient(a.url, { skills: true });
  await using clientB = createMcpClient(b.url, { skills: true });
  const [fromA] = await clientA.listSkills();
  await expect(clientB.loadSkill(fromA!)).rejects.toThrow(TypeError);
  // A copy is no entry either: the held one is the manifest.
  await expect(clientA.loadSkill({ ...fromA! })).rejects.toThrow(TypeError);
  expect(reads(b)).toEqual([]);
});

test('a wrong digest is refused, and its bytes are not returned', async () => {
  await using server = await startReferenceServer();
  server.faults.hostileSkills('wrong-digest');
  await using client = createMcpClient(server.url, { skills: true });
  const loaded = await client.loadSkill(GREETING);
  const error = await refusal(loaded.readFile('scripts/hello.sh'));
  expect(error.check).toBe('digest');
  expect(error.code).toBe('SKILL_VERIFICATION');
  expect(error.file).toBe('skill://reference/greeting/scripts/hello.sh');
});

test('a file the entry does not list is refused before it is asked for', async () => {
  await using server = await startReferenceServer();
  server.faults.hostileSkills('unlisted-file');
  await using client = createMcpClient(server.url, { skills: true });
  const loaded = await client.loadSkill(GREETING);
  expect(loaded.body).toContain('extra.txt');
  expect((await refusal(loaded.readFile('extra.txt'))).check).toBe('unlisted');
  expect((await refusal(loaded.readFile('../toolbox/SKILL.md'))).check).toBe('path');
  expect((await refusal(loaded.readFile('%2e%2e/toolbox/SKILL.md'))).check).toBe('path');
  // A directory read shows it, and extends nothing.
  const listing = await loaded.listDirectory();
  expect(listing.find((entry) => entry.path === 'extra.txt')?.listed).toBe(false);
  expect((await refusal(loaded.readFile('extra.txt'))).check).toBe('unlisted');
  expect(reads(server)).toEqual([GREETING]);
});

test.each(ERAS)(
  '%s: entries that climb, or pass the limits, are left out of the listing and refused',
  async (_era, url) => {
    await using server = await startReferenceServer();
    server.faults.hostileSkills('path-escape', 'over-limits');
    await using client = createMcpClient(url(server), { skills: true });
    const warnings: Error[] = [];
    client.on('warning', (warning) => warnings.push(warning));
    const names = (await client.listSkills()).map((skill) => skill.name);
    expect(names).toEqual(['greeting', 'toolbox', 'live']);
    expect(warnings.map((warning) => (warning as SkillVerificationError).check)).toEqual([
      'path',
      'limits',
      'limits',
    ]);
    for (const [uri, check] of [
      ['skill://reference/climber/SKILL.md', 'path'],
      ['skill://reference/huge/SKILL.md', 'limits'],
      ['skill://reference/heavy/SKILL.md', 'limits'],
    ] as const) {
      expect((await refusal(client.loadSkill(uri))).check).toBe(check);
    }
    expect(reads(server)).toEqual([]);
  },
);

test('a SKILL.md whose frontmatter disagrees with its entry is refused', async () => {
  await using server = await startReferenceServer();
  server.faults.hostileSkills('frontmatter-mismatch');
  await using client = createMcpClient(server.url, { skills: true });
  const error = await refusal(client.loadSkill(GREETING));
  expect(error.check).toBe('frontmatter');
  expect(error.message).toContain('"description"');
});

test('two skills of one name are both listed, told apart by their uri', async () => {
  await using server = await startReferenceServer();
  server.faults.hostileSkills('same-name');
  await using client = createMcpClient(server.url, { skills: true });
  const greetings = (await client.listSkills()).filter((skill) => skill.name === 'greeting');
  expect(greetings.map((skill) => skill.uri)).toEqual([
    GREETING,
    'skill://reference/other/greeting/SKILL.md',
  ]);
  const other = await client.loadSkill(greetings[1]!);
  expect(other.body).toContain('Another greeting');
});

test('a dynamic skill loads unverified, may be declined, and is read by directory', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.modern, { skills: true });
  const live = 'skill://reference/live/SKILL.md';
  expect((await refusal(client.loadSkill(live, { dynamic: false }))).check).toBe('dynamic');
  const loaded = await client.loadSkill(live);
  expect(loaded.verified).toBe(false);
  const listing = await loaded.listDirectory();
  expect(listing.map((entry) => [entry.path, entry.directory])).toEqual([
    ['SKILL.md', false],
    ['notes', true],
  ]);
  const notes = await loaded.readFile('notes/today.txt');
  expect(notes).toMatchObject({ text: 'today: sunny\n', verified: false });
});

test('a mistyped loadSkill option is an error', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { skills: true });
  await expect(
    client.loadSkill(GREETING, { dynamc: false } as unknown as { dynamic: boolean }),
  ).rejects.toThrow(TypeError);
  await expect(client.getSkill('skill://reference/none/SKILL.md')).rejects.toMatchObject({
    code: expect.any(String),
  } satisfies Partial<McpError>);
});
