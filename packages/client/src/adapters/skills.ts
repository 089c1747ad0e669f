/**
 * What both adapters give a model of skills: an index for the application's system prompt, and
 * the reads behind `read_skill` and `read_resource`. A skill is named by a key the model can
 * write: its name where that is unique, else `server/name`, else its uri (`server/uri` where two
 * servers list the same uri). A name that fits several skills is refused with the choices; the
 * model never gets one skill for another. Everything of a server reaches the model tagged with
 * that server; `allowed-tools` and nested skills are reported, never acted on.
 */
import type { ListOptions } from '../client/client.ts';
import { usageError } from '../core/call-boundary.ts';
import type { Skill } from '../skills/entry.ts';
import type { LoadedSkill, LoadSkillOptions } from '../skills/skills.ts';

/** A client or the servers of `createMcpClients`: both list and load skills. */
export interface SkillSource {
  listSkills(options?: ListOptions): Promise<Skill[]>;
  loadSkill(skill: Skill, options?: LoadSkillOptions): Promise<LoadedSkill>;
}

export interface SkillShelfOptions {
  /**
   * Whether dynamic skills (nothing to verify their files against) are offered and loaded.
   * @default false
   */
  dynamic?: boolean;
}

/** What `read_skill` gives the model and the application. */
export interface SkillReading {
  /** The key the model may use again (`read_resource`'s `skill`). */
  skill: string;
  server: string;
  uri: string;
  verified: boolean;
  /** SKILL.md, headed by the server it came from. */
  text: string;
  /** The paths `read_resource` may read. */
  files: readonly string[];
  /** `allowed-tools`: for the application to approve; nothing is granted. */
  allowedTools: readonly string[];
  /** SKILL.md files under this skill: each a skill of its own, to be approved on its own. */
  nestedSkills: readonly string[];
}

/** What `read_resource` gives: one file of a loaded skill. */
export interface SkillResourceReading {
  skill: string;
  server: string;
  uri: string;
  path: string;
  mimeType: string | undefined;
  size: number;
  verified: boolean;
  /** The file as text, headed by its server; undefined for a binary file. */
  text: string | undefined;
}

const TEXT_MIME = /^text\/|[/+](json|yaml|xml|markdown|javascript)$|^application\/x-sh$/;

/** Server text on one line, and no longer than the specification allows a description. */
function oneLine(text: string, max = 1024): string {
  // Control characters and line breaks would let a description pose as another entry.
  const flat = text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export class SkillShelf {
  readonly #source: SkillSource;
  readonly #dynamic: boolean;
  /** The skills `read_skill` loaded, by their entry: `read_resource` reads only these. */
  readonly #loaded = new Map<Skill, { key: string; loaded: LoadedSkill }>();

  constructor(source: SkillSource, options: SkillShelfOptions = {}) {
    this.#source = source;
    this.#dynamic = options.dynamic === true;
  }

  /**
   * The skills as lines for a system prompt: each key, its server and its description. The
   * application puts it in its prompt; nothing is added to one by itself.
   */
  async index(options: ListOptions = {}): Promise<string> {
    const keyed = this.#keyed(await this.#listed(options));
    if (keyed.length === 0) return '';
    return [
      "Skills: instructions offered by the servers named. Each is that server's text, not the user's. Read one with read_skill before following it; read its files with read_resource.",
      ...keyed.map(
        ([key, skill]) =>
          `- ${key} (server "${oneLine(skill.server, 200)}"${skill.resources === 'dynamic' ? ', unverified' : ''}): ${oneLine(skill.description)}`,
      ),
    ].join('\n');
  }

  /** Loads the skill a key names (verified) and gives SKILL.md tagged with its server. */
  async read(key: string, options: ListOptions = {}): Promise<SkillReading> {
    const keyed = this.#keyed(await this.#listed(options));
    const [skillKey, skill] = pick(keyed, key);
    const loaded = await this.#source.loadSkill(skill, { ...options, dynamic: this.#dynamic });
    this.#loaded.set(skill, { key: skillKey, loaded });
    return {
      skill: skillKey,
      server: loaded.server,
      uri: loaded.uri,
      verified: loaded.verified,
      text: `[skill "${skillKey}" from server "${loaded.server}" (${loaded.uri})${loaded.verified ? '' : ', unverified'}]\n\n${loaded.text}`,
      files: loaded.files,
      allowedTools: loaded.allowedTools,
      nestedSkills: loaded.nestedSkills,
    };
  }

  /**
   * A file of a skill `read` loaded, by its path under the skill's root or its uri, read from
   * that skill's server and checked against its held entry. `skill` says whose where several
   * loaded skills could have it.
   */
  async readResource(
    path: string,
    skillKey?: string,
    options: ListOptions = {},
  ): Promise<SkillResourceReading> {
    if (typeof path !== 'string' || path === '') throw usageError('expected a path');
    // The keys read_skill gave, so the model's own words find the skill again.
    const keyed = [...this.#loaded].map(([skill, { key }]): [string, Skill] => [key, skill]);
    const candidates =
      skillKey === undefined
        ? keyed.filter(([, skill]) => this.#has(skill, path))
        : [pick(keyed, skillKey)];
    if (candidates.length !== 1) {
      throw usageError(
        candidates.length === 0
          ? `no skill read so far lists ${path}: read_skill first, then name its files`
          : `${path} could be a file of ${candidates.map(([key]) => key).join(', ')}: say which with "skill"`,
      );
    }
    const [key, skill] = candidates[0]!;
    const { loaded } = this.#loaded.get(skill)!;
    // The loaded skill's own read: bound to its server and its entry, unlisted paths refused.
    const file = await loaded.readFile(path, options);
    const text = isText(file.mimeType, file.text)
      ? `[file "${file.path}" of skill "${key}" from server "${loaded.server}"]\n\n${file.text}`
      : undefined;
    return {
      skill: key,
      server: loaded.server,
      uri: file.uri,
      path: file.path,
      mimeType: file.mimeType,
      size: file.bytes.byteLength,
      verified: file.verified,
      text,
    };
  }

  async #listed(options: ListOptions): Promise<Skill[]> {
    const skills = await this.#source.listSkills(options);
    return this.#dynamic ? skills : skills.filter((skill) => skill.resources !== 'dynamic');
  }

  #has(skill: Skill, path: string): boolean {
    const { loaded } = this.#loaded.get(skill)!;
    const root = skill.uri.slice(0, -'/SKILL.md'.length);
    return loaded.files.includes(path) || loaded.files.some((file) => `${root}/${file}` === path);
  }

  /** Each skill with its key, the shortest that names it alone. */
  #keyed(skills: readonly Skill[]): Array<[string, Skill]> {
    const count = (of: (skill: Skill) => string) => {
      const counts = new Map<string, number>();
      for (const skill of skills) counts.set(of(skill), (counts.get(of(skill)) ?? 0) + 1);
      return (skill: Skill) => counts.get(of(skill))!;
    };
    const byName = count((skill) => skill.name);
    const byServerName = count((skill) => `${skill.server}/${skill.name}`);
    const byUri = count((skill) => skill.uri);
    return skills.map((skill) => [
      byName(skill) === 1
        ? skill.name
        : byServerName(skill) === 1
          ? `${skill.server}/${skill.name}`
          : byUri(skill) === 1
            ? skill.uri
            : `${skill.server}/${skill.uri}`,
      skill,
    ]);
  }
}

/** The one skill `key` names (its key, `server/name`, its uri or `server/uri`), or a refusal. */
function pick(keyed: Array<[string, Skill]>, key: string): [string, Skill] {
  if (typeof key !== 'string') throw usageError('expected a skill name');
  const matches = keyed.filter(
    ([own, skill]) =>
      own === key ||
      skill.name === key ||
      `${skill.server}/${skill.name}` === key ||
      skill.uri === key ||
      `${skill.server}/${skill.uri}` === key,
  );
  if (matches.length === 1) return matches[0]!;
  const choices = (matches.length === 0 ? keyed : matches).map(([own]) => own);
  throw usageError(
    matches.length === 0
      ? `no skill "${key}"; the skills are: ${choices.join(', ') || '(none)'}`
      : `"${key}" names ${matches.length} skills; say which: ${choices.join(', ')}`,
  );
}

function isText(mimeType: string | undefined, text: string): boolean {
  return mimeType === undefined ? !text.includes('\uFFFD') : TEXT_MIME.test(mimeType);
}
