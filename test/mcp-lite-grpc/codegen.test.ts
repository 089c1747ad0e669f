/**
 * The generated code is what the committed .proto gives: `npm run generate:proto` runs offline
 * (buf and protoc-gen-es from node_modules) and reproduces every committed file byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GENERATED = [
  'packages/client/src/dialects/mcp-lite/grpc/gen',
  'packages/reference-server/src/mcp-lite/grpc/gen',
];

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

// buf runs protoc-gen-es (a Node program) once per output: seconds on a busy machine.
test('regenerating from proto/ gives the committed files', { timeout: 120_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'toolwire-proto-'));
  try {
    const bin = join(root, 'node_modules', '.bin');
    execFileSync(
      join(bin, 'buf'),
      ['generate', '--template', 'proto/buf.gen.yaml', '--output', out, 'proto'],
      { cwd: root, env: { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH']}` } },
    );
    for (const dir of GENERATED) {
      const committed = files(join(root, dir));
      expect(committed.length).toBeGreaterThan(0);
      expect(files(join(out, dir))).toEqual(committed);
      for (const file of committed) {
        expect(readFileSync(join(out, dir, file), 'utf8'), file).toBe(
          readFileSync(join(root, dir, file), 'utf8'),
        );
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
