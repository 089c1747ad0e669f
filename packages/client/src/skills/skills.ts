/**
 * Skills over MCP (SEP-2640) for one client: the listing and the entries the client holds, and
 * loading a skill: SKILL.md read and verified, its supporting files only when asked, each
 * verified on the way in. Every read of a loaded skill goes to the server that listed it, for a
 * file its held entry lists: the manifest is the entry, never a directory read or a later
 * listing.
 */
import type { ResultCache } from '../call/cache.ts';
import { usageError } from '../core/call-boundary.ts';
import {
  MalformedMessageError,
  MissingCapabilityError,
  SkillVerificationError,
} from '../core/errors.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import { checkEntry, MAX_SKILL_BYTES, type Skill, type SkillResource } from './entry.ts';
import { SKILLS_EXTENSION } from './extension.ts';
import { firstDifference, readFrontmatter } from './frontmatter.ts';
import { pathUnder, safePath, skillRoot } from './paths.ts';
import { bytesOf, verifyBytes } from './verify.ts';

/** Options of skill methods: those of every request, and `refresh`. */
export interface SkillRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxTimeoutMs?: number;
  /** Ignore the cache and ask the server again. */
  refresh?: boolean;
}

export interface LoadSkillOptions extends SkillRequestOptions {
  /**
   * Whether a dynamic skill (`resources: "dynamic"`, nothing to verify its files against) may be
   * loaded. `false` refuses it with a SkillVerificationError (`check: 'dynamic'`).
   * @default true
   */
  dynamic?: boolean;
}

/** One file of a loaded skill, verified against the entry (unless the skill is dynamic). */
export interface SkillFile {
  uri: string;
  /** Its path under the skill's root (`scripts/run.sh`). */
  path: string;
  mimeType: string | undefined;
  bytes: Uint8Array;
  /** The bytes as UTF-8 (replacement characters where they are not). */
  text: string;
  /** False for a dynamic skill's file: nothing said what it should be. */
  verified: boolean;
}

/** A child of a skill's directory, as `resources/directory/read` gave it. */
export interface SkillDirectoryEntry {
  uri: string;
  path: string;
  mimeType: string | undefined;
  directory: boolean;
  /** Whether the held entry lists it: only a listed file of a static skill can be read. */
  listed: boolean;
}

/** A skill loaded: SKILL.md verified, and what the application decides on reported, not acted on. */
export interface LoadedSkill {
  /** The held entry the skill was loaded from: every read is bound to it. */
  skill: Skill;
  server: string;
  uri: string;
  name: string;
  /** False for a dynamic skill: its files were checked against nothing. */
  verified: boolean;
  /** SKILL.md as the server sent it. Untrusted: tag it with `server` where a model sees it. */
  text: string;
  /** SKILL.md after its frontmatter. */
  body: string;
  /** `allowed-tools` of the frontmatter, reported for the application to approve; never honoured. */
  allowedTools: readonly string[];
  /** The uris of SKILL.md files under this skill: each needs its own approval to be activated. */
  nestedSkills: readonly string[];
  /** The paths of the supporting files the entry lists (none for a dynamic skill). */
  files: readonly string[];
  /** A file of the skill, by its path under the root (or its uri); fetched now, verified. */
  readFile(path: string, options?: SkillRequestOptions): Promise<SkillFile>;
  /** The children of a directory of the skill, where the server declared `directoryRead`. */
  listDirectory(path?: string, options?: SkillRequestOptions): Promise<SkillDirectoryEntry[]>;
}

/** What a client gives its skills: its requests, its cache and its label. */
export interface SkillHost {
  /** The server's label: with a skill's uri, its identity. */
  server: string;
  /** Whether the application enabled skills (and so declared the extension). */
  enabled: boolean;
  /** Every page of `skills/list`, fresh for as long as its least fresh page's `ttlMs`. */
  list(options: SkillRequestOptions): Promise<{ value: unknown[]; freshForMs: number }>;
  /** One request, answered by its result. */
  request(method: string, params: JsonObject, options: SkillRequestOptions): Promise<JsonObject>;
  /** The server's capabilities, connecting first if needed. */
  capabilities(options: SkillRequestOptions): Promise<JsonObject>;
  cache: ResultCache;
  warn(error: Error): void;
  maxPages: number;
}

/** The caching hint of a skills result: `ttlMs`, else nothing. */
export function ttlOf(result: JsonObject): number {
  const ttl = result['ttlMs'];
  return typeof ttl === 'number' && ttl > 0 ? ttl : 0;
}

const DIRECTORY_MIME = 'inode/directory';

export class SkillCatalog {
  readonly #host: SkillHost;
  /** The entries this client produced: only these may be loaded, so reads stay bound to them. */
  readonly #held = new WeakSet<Skill>();

  constructor(host: SkillHost) {
    this.#host = host;
  }

  /** Every skill the server lists, each checked; one that fails is left out with a `warning`. */
  list(options: SkillRequestOptions): Promise<Skill[]> {
    this.#enabled();
    return this.#host.cache.get(
      'skills/list',
      async () => {
        const { value, freshForMs } = await this.#host.list(options);
        const skills: Skill[] = [];
        for (const raw of value) {
          try {
            skills.push(this.#hold(checkEntry(raw, this.#host.server)));
          } catch (error) {
            this.#host.warn(error as Error);
          }
        }
        return { value: skills, freshForMs };
      },
      options.refresh,
    );
  }

  /** The skill whose SKILL.md is `uri`, from `skills/get`: listed or not, it may exist. */
  get(uri: string, options: SkillRequestOptions): Promise<Skill> {
    this.#enabled();
    if (typeof uri !== 'string' || skillRoot(uri) === undefined) {
      throw usageError(`expected the uri of a SKILL.md, got ${JSON.stringify(uri)}`);
    }
    return this.#host.cache.get(
      `skills/get\u0000${uri}`,
      async () => {
        const result = await this.#host.request('skills/get', { uri }, options);
        const skill = this.#hold(checkEntry(result['skill'], this.#host.server));
        // A server answering for another skill than the one asked for is refused, not followed.
        if (skill.uri !== uri) {
          throw new MalformedMessageError(`skills/get for ${uri} answered ${skill.uri}`, {
            url: this.#host.server,
            method: 'skills/get',
          });
        }
        return { value: skill, freshForMs: ttlOf(result) };
      },
      options.refresh,
    );
  }

  /** Loads a skill: by its uri (through `skills/get`), or an entry this client handed out. */
  async load(target: string | Skill, options: LoadSkillOptions): Promise<LoadedSkill> {
    const skill = typeof target === 'string' ? await this.get(target, options) : target;
    if (!this.#held.has(skill)) {
      throw usageError(
        `the skill ${String(skill?.uri)} was not listed by this client (${this.#host.server}); load it from the client of the server that listed it`,
      );
    }
    if (skill.resources === 'dynamic' && options.dynamic === false) {
      throw new SkillVerificationError(
        'dynamic',
        'the skill is dynamic and dynamic skills were declined',
        { skill: skill.uri },
        { url: this.#host.server },
      );
    }
    const budget = { retrieved: 0 };
    const skillMd = await this.#readFile(skill, skill.uri, budget, options);
    const text = new TextDecoder().decode(skillMd.bytes);
    const read = await readFrontmatter(text);
    const fail = (detail: string) =>
      new SkillVerificationError(
        'frontmatter',
        detail,
        { skill: skill.uri, file: skill.uri },
        { url: this.#host.server },
      );
    if ('problem' in read) throw fail(read.problem);
    const differs = firstDifference(read.frontmatter, skill.frontmatter);
    if (differs !== undefined) throw fail(`SKILL.md and the entry disagree on "${differs}"`);
    return this.#loaded(skill, text, read.body, budget);
  }

  #loaded(skill: Skill, text: string, body: string, budget: { retrieved: number }): LoadedSkill {
    const root = skillRoot(skill.uri)!;
    const files =
      skill.resources === 'dynamic'
        ? []
        : skill.resources
            .filter((file) => file.uri !== skill.uri)
            .map((file) => pathOf(root, file.uri));
    return {
      skill,
      server: skill.server,
      uri: skill.uri,
      name: skill.name,
      verified: skill.resources !== 'dynamic',
      text,
      body,
      allowedTools: allowedTools(skill.frontmatter['allowed-tools']),
      nestedSkills: files
        .filter((path) => path.endsWith('/SKILL.md'))
        .map((path) => `${root}/${path}`),
      files,
      // Async, so a refused path rejects like every other refusal.
      readFile: async (path, options = {}) =>
        this.#readFile(skill, this.#fileUri(skill, root, path), budget, options),
      listDirectory: async (path = '', options = {}) =>
        this.#listDirectory(skill, root, path, options),
    };
  }

  /** `path` under the root, or a uri under it; anything else is a `path` refusal. */
  #fileUri(skill: Skill, root: string, path: string): string {
    if (typeof path !== 'string') throw usageError('expected a file path');
    const uri = path.includes('://') ? path : `${root}/${path}`;
    if (
      uri !== skill.uri &&
      (!safePath(uri.slice(root.length + 1)) || !uri.startsWith(`${root}/`))
    ) {
      throw new SkillVerificationError(
        'path',
        `${path} is not under ${root}/`,
        { skill: skill.uri, file: uri },
        { url: this.#host.server },
      );
    }
    return uri;
  }

  async #readFile(
    skill: Skill,
    uri: string,
    budget: { retrieved: number },
    options: SkillRequestOptions,
  ): Promise<SkillFile> {
    const where = { skill: skill.uri, file: uri };
    const listed: SkillResource | undefined =
      skill.resources === 'dynamic'
        ? undefined
        : skill.resources.find((resource) => resource.uri === uri);
    if (skill.resources !== 'dynamic' && !listed) {
      // Asked for before anything is sent: an unlisted file is never fetched.
      throw new SkillVerificationError('unlisted', `the entry does not list ${uri}`, where, {
        url: this.#host.server,
      });
    }
    const result = await this.#host.request('resources/read', { uri }, options);
    const contents = Array.isArray(result['contents']) ? result['contents'] : [];
    const matching = contents.filter((item) => isObject(item) && item['uri'] === uri);
    const bytes = matching.length === 1 ? bytesOf(matching[0]) : undefined;
    if (!bytes) {
      throw new MalformedMessageError(`resources/read of ${uri} gave no one content of it`, {
        url: this.#host.server,
        method: 'resources/read',
      });
    }
    if (listed) verifyBytes(bytes, listed, { skill: skill.uri, url: this.#host.server });
    else {
      // A dynamic skill has no manifest: the size limit applies to what is retrieved.
      budget.retrieved += bytes.byteLength;
      if (budget.retrieved > MAX_SKILL_BYTES) {
        throw new SkillVerificationError(
          'limits',
          `more than ${MAX_SKILL_BYTES} bytes retrieved`,
          where,
          { url: this.#host.server },
        );
      }
    }
    const content = matching[0] as JsonObject;
    const root = skillRoot(skill.uri)!;
    return {
      uri,
      path: uri === skill.uri ? 'SKILL.md' : pathOf(root, uri),
      mimeType: typeof content['mimeType'] === 'string' ? content['mimeType'] : undefined,
      bytes,
      text: new TextDecoder().decode(bytes),
      verified: listed !== undefined,
    };
  }

  async #listDirectory(
    skill: Skill,
    root: string,
    path: string,
    options: SkillRequestOptions,
  ): Promise<SkillDirectoryEntry[]> {
    const capabilities = await this.#host.capabilities(options);
    const extensions = isObject(capabilities['extensions']) ? capabilities['extensions'] : {};
    const declared = extensions[SKILLS_EXTENSION];
    // The specification's MUST NOT: no directory read where the server did not offer one.
    if (!isObject(declared) || declared['directoryRead'] !== true) {
      throw MissingCapabilityError.ofServer(`extensions.${SKILLS_EXTENSION}.directoryRead`, {
        url: this.#host.server,
        method: 'resources/directory/read',
      });
    }
    const dir = path === '' ? root : this.#fileUri(skill, root, path.replace(/\/+$/, ''));
    const entries: SkillDirectoryEntry[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; page <= this.#host.maxPages; page++) {
      const params: JsonObject = cursor === undefined ? { uri: dir } : { uri: dir, cursor };
      const result = await this.#host.request('resources/directory/read', params, options);
      const resources = Array.isArray(result['resources']) ? result['resources'] : [];
      for (const item of resources) {
        const uri = isObject(item) && typeof item['uri'] === 'string' ? item['uri'] : undefined;
        const under = uri === undefined ? undefined : pathUnder(dir, uri);
        // Only direct children under the skill's root; anything else is the server's mistake.
        if (uri === undefined || under === undefined || under.includes('/')) {
          this.#host.warn(
            new MalformedMessageError(`directory entry outside ${dir} dropped`, {
              url: this.#host.server,
              method: 'resources/directory/read',
            }),
          );
          continue;
        }
        const mimeType = typeof item['mimeType'] === 'string' ? item['mimeType'] : undefined;
        entries.push({
          uri,
          path: pathOf(root, uri),
          mimeType,
          directory: mimeType === DIRECTORY_MIME,
          listed:
            skill.resources !== 'dynamic' &&
            skill.resources.some((resource) => resource.uri === uri),
        });
      }
      const next = result['nextCursor'];
      if (typeof next !== 'string' || next === '' || seen.has(next)) break;
      seen.add(next);
      cursor = next;
    }
    return entries;
  }

  #hold(skill: Skill): Skill {
    this.#held.add(skill);
    return skill;
  }

  #enabled(): void {
    if (!this.#host.enabled) {
      throw usageError('skills are off: create the client with `skills: true` to use them');
    }
  }
}

function pathOf(root: string, uri: string): string {
  return uri.slice(root.length + 1);
}

/** `allowed-tools`: a space-separated string, or a list; anything else is no tools. */
function allowedTools(value: unknown): readonly string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((tool): tool is string => typeof tool === 'string');
  return [];
}
