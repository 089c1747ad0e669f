/**
 * Skills across servers: each entry a server's client handed out, relabelled with the name the
 * application gave that server, and remembered with it, so that loading a skill goes to the
 * server that listed it and to no other. Two servers may list the same uri or the same name:
 * (server, uri) tells them apart.
 */
import type { McpClient } from '../client/client.ts';
import { usageError } from '../core/call-boundary.ts';
import type { Skill } from '../skills/entry.ts';
import type { LoadedSkill, LoadSkillOptions } from '../skills/skills.ts';

/** Where a relabelled entry came from: the server's name, its client, the entry that client holds. */
interface SkillOrigin {
  server: string;
  client: McpClient;
  entry: Skill;
}

export class ServerSkills {
  /** The relabelled entry of each entry a client holds, so a listing gives the same objects. */
  readonly #relabelled = new WeakMap<Skill, Skill>();
  readonly #origins = new WeakMap<Skill, SkillOrigin>();
  /** The last combined listing, to find a bare uri's server. */
  #last: readonly Skill[] = [];

  /** Each server's entries, in the servers' order, relabelled with the server's name. */
  listed(parts: ReadonlyArray<{ server: string; client: McpClient; skills: Skill[] }>): Skill[] {
    const skills = parts.flatMap(({ server, client, skills }) =>
      skills.map((entry) => this.#relabel(server, client, entry)),
    );
    this.#last = skills;
    return skills;
  }

  /**
   * Loads a skill on the server that listed it. A uri alone is found in the last listing, and
   * must be one server's: where two list it, `server` says which.
   */
  async load(
    target: Skill | string,
    options: LoadSkillOptions & { server?: string },
    clientOf: (server: string) => McpClient,
  ): Promise<LoadedSkill> {
    const { server, ...rest } = options;
    if (typeof target !== 'string') {
      const origin = this.#origins.get(target);
      if (!origin) {
        throw usageError(
          `the skill ${String(target?.uri)} was not listed by these servers; load one listSkills() gave`,
        );
      }
      return this.#loaded(origin, await origin.client.loadSkill(origin.entry, rest));
    }
    const named = server ?? this.#serverOf(target);
    const client = clientOf(named);
    const loaded = await client.loadSkill(target, rest);
    const skill = this.#relabel(named, client, loaded.skill);
    return this.#loaded(this.#origins.get(skill)!, loaded);
  }

  #serverOf(uri: string): string {
    const servers = this.#last.filter((skill) => skill.uri === uri).map((skill) => skill.server);
    if (servers.length === 1) return servers[0]!;
    throw usageError(
      servers.length === 0
        ? `no server listed ${uri}: pass { server } to say which to ask`
        : `${uri} is listed by ${servers.join(', ')}: pass { server } to say which`,
    );
  }

  #relabel(server: string, client: McpClient, entry: Skill): Skill {
    let skill = this.#relabelled.get(entry);
    if (!skill) {
      skill = Object.freeze({ ...entry, server });
      this.#relabelled.set(entry, skill);
      this.#origins.set(skill, { server, client, entry });
    }
    return skill;
  }

  /** The loaded skill under the server's name; its reads stay bound to the held entry. */
  #loaded(origin: SkillOrigin, loaded: LoadedSkill): LoadedSkill {
    return { ...loaded, skill: this.#relabelled.get(origin.entry)!, server: origin.server };
  }
}
