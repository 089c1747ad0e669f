/**
 * Tool names across several servers: `server__tool`, which keeps two servers' tools apart, goes
 * back to the server and its own name, and is made provider-safe by the adapters' one rule
 * (adapters/names.ts), so a repaired name is the one either adapter would give it.
 */
import { safeNames } from '../adapters/names.ts';

/** Between the server's name and the tool's. Server names may not contain it. */
export const SEPARATOR = '__';
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
    const origins = listing.flatMap(({ server, tools }) => tools.map((tool) => ({ server, tool })));
    // A server name is safe and has no `__` of its own, so `server__tool` is one tool's alone.
    const safe = safeNames(origins.map(({ server, tool }) => server + SEPARATOR + tool));
    for (const origin of origins)
      names.#set(safe.get(origin.server + SEPARATOR + origin.tool)!, origin);
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
