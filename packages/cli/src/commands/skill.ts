/**
 * `toolwire skill TARGET NAME --out DIR`: one skill, loaded and verified (SKILL.md and every file
 * its entry lists, each against its size and digest), then written under
 * `DIR/<server>/<skill path>/`. Every file is read and verified before the first is written, so
 * a lie leaves nothing behind. A dynamic skill has nothing to verify against: refused unless
 * `--dynamic`. Without `--out`, SKILL.md is shown and nothing is written.
 */

import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import type { LoadedSkill, Skill } from '@toolwire/client';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import { printable, visible } from '../printable.ts';
import {
  directoriesUnder,
  plainSegments,
  serverDirectory,
  writeSkillFiles,
} from '../render/skill-files.ts';
import type { Session } from '../session.ts';

export interface SkillOptions {
  out?: string | undefined;
  force?: boolean | undefined;
  dynamic?: boolean | undefined;
}

/** Most files a dynamic skill's directory reads may bring (the specification's limit). */
const MAX_DYNAMIC_FILES = 512;

/** The server's name for a directory: the config entry's, else the URL's host, else the program's. */
export function serverLabel({ target }: Pick<Session, 'target'>): string {
  if (target.name !== undefined) return serverDirectory(target.name);
  if (target.kind === 'http') return serverDirectory(new URL(target.url).host);
  return serverDirectory(basename(target.command));
}

export async function skillCommand(
  session: Session,
  words: readonly string[],
  options: SkillOptions,
): Promise<ExitCode> {
  const { client, terminal, signal } = session;
  const [wanted, ...extra] = words;
  if (wanted === undefined) throw new UsageError('name the skill (its name, or its SKILL.md uri)');
  if (extra.length > 0) throw new UsageError(`skill takes one name, got also ${extra.join(' ')}`);
  const skill = pick(await client.listSkills({ signal }), wanted);
  if (skill.resources === 'dynamic' && options.dynamic !== true) {
    throw new UsageError(
      `${visible(skill.name)} is dynamic: its files cannot be verified; --dynamic takes it anyway`,
    );
  }
  const server = serverLabel(session);
  const loaded = await client.loadSkill(skill, { signal, dynamic: options.dynamic === true });
  // Everything read and verified first: a file that fails leaves nothing written.
  const files = [
    { path: 'SKILL.md', bytes: new TextEncoder().encode(loaded.text) },
    ...(await Promise.all(
      (
        await pathsOf(loaded, signal)
      ).map(async (path) => {
        const file = await loaded.readFile(path, { signal });
        return { path: file.path, bytes: file.bytes };
      }),
    )),
  ];
  const summary = {
    server,
    name: skill.name,
    uri: skill.uri,
    verified: loaded.verified,
    allowedTools: loaded.allowedTools,
    nestedSkills: loaded.nestedSkills,
  };
  if (options.out === undefined) {
    if (terminal.json) terminal.printJson({ ...summary, text: loaded.text, files: loaded.files });
    else {
      terminal.print(printable(loaded.text));
      for (const path of loaded.files) terminal.say(`  file: ${visible(path)}`);
    }
    return EXIT.ok;
  }
  await mkdir(options.out, { recursive: true });
  const dir = await directoriesUnder(options.out, [server, ...skillPath(skill.uri)]);
  const written = await writeSkillFiles(dir, files, options.force === true);
  if (terminal.json) terminal.printJson({ ...summary, dir, written });
  else {
    terminal.print(
      `${visible(skill.name)} from ${visible(server)}: ${written.length} files in ${dir}`,
    );
    if (!loaded.verified) terminal.say('! dynamic: these files were verified against nothing');
    if (loaded.allowedTools.length > 0) {
      terminal.say(
        `! it asks for tools (allowed-tools): ${visible(loaded.allowedTools.join(' '))}; nothing is granted by asking`,
      );
    }
  }
  return EXIT.ok;
}

/** The skill a name (or a uri) names; two of one name need the uri. */
function pick(skills: readonly Skill[], wanted: string): Skill {
  const matches = skills.filter((skill) => skill.uri === wanted || skill.name === wanted);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new UsageError(
      `no skill "${visible(wanted)}" (there are ${skills.map((skill) => visible(skill.name)).join(', ') || 'none'})`,
    );
  }
  throw new UsageError(
    `${matches.length} skills are named "${visible(wanted)}"; give the uri of one: ${matches.map((skill) => visible(skill.uri)).join(', ')}`,
  );
}

/** `skill://reference/greeting/SKILL.md` → `reference`, `greeting`: each a plain name. */
function skillPath(uri: string): string[] {
  const root = uri.slice(0, -'/SKILL.md'.length).replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, '');
  return plainSegments(root, 'skill path');
}

/** The files to fetch: the entry's; for a dynamic skill, what directory reads find. */
async function pathsOf(loaded: LoadedSkill, signal: AbortSignal): Promise<string[]> {
  if (loaded.verified) return [...loaded.files];
  const found: string[] = [];
  const pending = [''];
  while (pending.length > 0 && found.length < MAX_DYNAMIC_FILES) {
    const dir = pending.shift()!;
    for (const entry of await loaded.listDirectory(dir, { signal })) {
      if (entry.directory) pending.push(entry.path);
      else if (entry.path !== 'SKILL.md') found.push(entry.path);
    }
  }
  return found.slice(0, MAX_DYNAMIC_FILES);
}
