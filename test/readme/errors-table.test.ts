/**
 * The README's table of errors against what the client exports: every error class a user can
 * catch is in the table, the table names no class that is not exported, and each row's `code`
 * is the one the class carries.
 */
import { readFile } from 'node:fs/promises';
import * as client from '@toolwire/client';
import { expect, test } from 'vitest';

const README = new URL('../../README.md', import.meta.url);

/** `| \`Class\` | \`CODE\` | when |` rows of the "## Errors" section. */
async function documented(): Promise<Map<string, string>> {
  const text = await readFile(README, 'utf8');
  const section = text.slice(
    text.indexOf('\n## Errors\n'),
    text.indexOf('\n## ', text.indexOf('\n## Errors\n') + 1),
  );
  const rows = new Map<string, string>();
  for (const [, name, code] of section.matchAll(/^\| `(\w+)` +\| `(\w+)` +\|/gm)) {
    rows.set(name!, code!);
  }
  return rows;
}

/** Every exported class that is an McpError (McpError itself is the base, not a row). */
function exported(): Map<string, new (...args: never[]) => client.McpError> {
  const classes = new Map<string, new (...args: never[]) => client.McpError>();
  for (const [name, value] of Object.entries(client)) {
    if (typeof value !== 'function' || value === client.McpError) continue;
    if (value.prototype instanceof client.McpError) {
      classes.set(name, value as new (...args: never[]) => client.McpError);
    }
  }
  return classes;
}

test('the README documents every exported error class, and only those', async () => {
  const rows = await documented();
  const classes = exported();
  expect(classes.size).toBeGreaterThan(20);
  expect([...rows.keys()].sort()).toEqual([...classes.keys()].sort());
});

test("each row's code is the class's own", async () => {
  const rows = await documented();
  for (const [name, type] of exported()) {
    const Class = type as unknown as new (...args: unknown[]) => client.McpError;
    let instance: client.McpError | undefined;
    try {
      // Most errors build from their options alone; those that need more are left to their tests.
      instance = new Class({});
    } catch {
      continue;
    }
    expect({ name, code: instance.code }).toEqual({ name, code: rows.get(name) });
  }
});
