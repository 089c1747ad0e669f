/**
 * A skill entry of `skills/list` or `skills/get`, checked before anything of it is used: its
 * shape, its name against its uri, every file under its root, the specification's limits (from
 * the entry, before anything is retrieved). What passes is frozen: the entry the client holds is
 * the manifest every later read is bound to, and no one may extend it afterwards.
 */
import { SkillVerificationError } from '../core/errors.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import { lastSegment, pathUnder, safeRoot, skillRoot } from './paths.ts';

/** The specification's limits: a host accepts up to these, and refuses past them. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** One file of a skill's manifest. */
export interface SkillResource {
  readonly uri: string;
  /** `sha256:` and 64 lowercase hex digits of the raw bytes. */
  readonly digest: string;
  /** The byte length. */
  readonly size: number;
}

/** A skill as a server lists it, with the server it came from: (server, uri) is its identity. */
export interface Skill {
  /** The label of the server that listed it (its URL, or its name in `createMcpClients`). */
  readonly server: string;
  /** Its SKILL.md uri. */
  readonly uri: string;
  /** `frontmatter.name`: a label, not an identity (two skills may share it). */
  readonly name: string;
  /** `frontmatter.description`. */
  readonly description: string;
  /** SKILL.md's YAML frontmatter, as the server gave it. */
  readonly frontmatter: Readonly<JsonObject>;
  /** Every file (SKILL.md included), or `"dynamic"`: files the server decides when read. */
  readonly resources: readonly SkillResource[] | 'dynamic';
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The entry as a frozen Skill of `server`; a SkillVerificationError when it is not one. */
export function checkEntry(raw: unknown, server: string): Skill {
  const uri = isObject(raw) && typeof raw['uri'] === 'string' ? raw['uri'] : '(no uri)';
  const fail = (check: 'entry' | 'name' | 'path' | 'limits', detail: string) =>
    new SkillVerificationError(check, detail, { skill: uri }, { url: server });
  if (!isObject(raw)) throw fail('entry', 'not an object');
  const root = skillRoot(uri);
  if (root === undefined) throw fail('entry', 'its uri does not end in /SKILL.md');
  if (!safeRoot(root)) throw fail('path', 'its uri climbs out of itself');
  const frontmatter = raw['frontmatter'];
  if (!isObject(frontmatter)) throw fail('entry', 'no frontmatter object');
  const { name, description } = frontmatter;
  if (typeof name !== 'string' || name === '') throw fail('entry', 'no name');
  if (typeof description !== 'string') throw fail('entry', 'no description');
  if (lastSegment(root) !== name) {
    throw fail('name', `the uri names "${lastSegment(root)}", the frontmatter "${name}"`);
  }
  const resources = checkResources(raw['resources'], uri, root, fail);
  return Object.freeze({
    server,
    uri,
    name,
    description,
    frontmatter: deepFreeze(structuredClone(frontmatter)),
    resources,
  });
}

function checkResources(
  listed: unknown,
  uri: string,
  root: string,
  fail: (check: 'entry' | 'path' | 'limits', detail: string) => SkillVerificationError,
): readonly SkillResource[] | 'dynamic' {
  if (listed === 'dynamic') return 'dynamic';
  if (!Array.isArray(listed)) throw fail('entry', 'resources is neither a list nor "dynamic"');
  // The limits first, from the entry alone: a list of a million is refused before it is read.
  if (listed.length > MAX_SKILL_FILES) {
    throw fail('limits', `${listed.length} files, more than ${MAX_SKILL_FILES}`);
  }
  const seen = new Set<string>();
  const resources: SkillResource[] = [];
  let total = 0;
  for (const item of listed) {
    if (!isObject(item) || typeof item['uri'] !== 'string') {
      throw fail('entry', 'a resource without a uri');
    }
    const file = item['uri'];
    const { digest, size } = item;
    if (typeof digest !== 'string' || !DIGEST.test(digest)) {
      throw fail('entry', `${file} has no sha256 digest`);
    }
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      throw fail('entry', `${file} has no byte size`);
    }
    if (file !== uri && pathUnder(root, file) === undefined) {
      throw fail('path', `${file} is not under ${root}/`);
    }
    if (seen.has(file)) throw fail('entry', `${file} is listed twice`);
    seen.add(file);
    total += size;
    resources.push(Object.freeze({ uri: file, digest, size }));
  }
  if (total > MAX_SKILL_BYTES) {
    throw fail('limits', `${total} bytes, more than ${MAX_SKILL_BYTES}`);
  }
  if (!seen.has(uri)) throw fail('entry', 'its resources leave SKILL.md out');
  return Object.freeze(resources);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
