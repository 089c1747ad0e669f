/**
 * Tool names across several servers: `server__tool`, which keeps two servers' tools apart, goes
 * back to the server and its own name, and is a name every model provider accepts
 * (`^[a-zA-Z0-9_-]{1,64}$`). A name that does not fit is repaired deterministically (characters
 * replaced, cut, a short hash added), so a model that saw it in an earlier turn still means the
 * same tool; the table gives the way back.
 */

/** Between the server's name and the tool's. Server names may not contain it. */
export const SEPARATOR = '__';
const SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
/** Server names: safe characters, no `__`, no `_` at either end (it would blur the separator). */
const SERVER_NAME = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;

export function isServerName(name: string): boolean {
  return SERVER_NAME.test(name);
}

export interface ToolOriginName {
  /** The server's name, as the application gave it to `createMcpClients`. */
  server: string;
  /** The tool's name on that server. */
  tool: string;
}

/** Qualified names, both ways, for the tools of one listing. */
export class ServerToolNames {
  readonly #toOrigin = new Map<string, ToolOriginName>();
  readonly #toName = new Map<string, string>();

  /** Names every tool of `listing` (server name → the server's tool names), in order. */
  static of(listing: ReadonlyArray<{ server: string; tools: readonly string[] }>): ServerToolNames {
    const names = new ServerToolNames();
    const repaired: ToolOriginName[] = [];
    // Names that need no repair first: a repaired one must never take a plain one's place.
    for (const { server, tools } of listing) {
      for (const tool of tools) {
        const wanted = server + SEPARATOR + tool;
        if (SAFE_NAME.test(wanted) && !names.#toOrigin.has(wanted))
          names.#set(wanted, { server, tool });
        else repaired.push({ server, tool });
      }
    }
    for (const origin of repaired) {
      if (names.name(origin.server, origin.tool) !== undefined) continue; // listed twice
      names.#set(
        repair(origin, (candidate) => names.#toOrigin.has(candidate)),
        origin,
      );
    }
    return names;
  }

  /** The qualified name of a server's tool, if it was listed. */
  name(server: string, tool: string): string | undefined {
    return this.#toName.get(key(server, tool));
  }

  /**
   * Where a qualified name leads: from the table, or for a name this listing never gave out
   * (the server was down, say) by splitting at the first `__`.
   */
  origin(name: string): ToolOriginName | undefined {
    const known = this.#toOrigin.get(name);
    if (known) return known;
    const at = name.indexOf(SEPARATOR);
    return at > 0
      ? { server: name.slice(0, at), tool: name.slice(at + SEPARATOR.length) }
      : undefined;
  }

  #set(name: string, origin: ToolOriginName): void {
    this.#toOrigin.set(name, origin);
    this.#toName.set(key(origin.server, origin.tool), name);
  }
}

function key(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

function repair({ server, tool }: ToolOriginName, taken: (name: string) => boolean): string {
  const wanted = server + SEPARATOR + tool;
  const base = server + SEPARATOR + (tool.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool');
  let candidate = base.length <= MAX_LENGTH ? base : withSuffix(base, hash(wanted));
  for (let attempt = 1; taken(candidate); attempt++) {
    candidate = withSuffix(base, hash(`${wanted}#${attempt}`));
  }
  return candidate;
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_LENGTH - suffix.length - 1)}_${suffix}`;
}

/** FNV-1a, 32 bits, in base 36: short, and the same on every run and platform. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(36);
}
