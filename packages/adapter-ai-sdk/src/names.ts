/**
 * Tool names a provider accepts (`^[a-zA-Z0-9_-]{1,64}$`), and the way back to the server's
 * names. A name that is already safe is never changed; the others are made safe
 * deterministically, so the names a model saw in earlier turns still mean the same tools.
 */

const SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

export function isSafeName(name: string): boolean {
  return SAFE_NAME.test(name);
}

/** Model-side names and server-side names, both ways. */
export interface ToolNameMap {
  /** The server's name of the tool the model knows as `modelName`. */
  serverName(modelName: string): string | undefined;
  /** The name the model knows the server's tool `serverName` by. */
  modelName(serverName: string): string | undefined;
}

/** Gives each server name a safe, unique model name: `prefix + name`, repaired when needed. */
export function assignNames(serverNames: readonly string[], prefix: string): NameTable {
  const table = new NameTable();
  // Safe names first: a repaired name must never take the place of one that needed no repair.
  const repaired: string[] = [];
  for (const name of serverNames) {
    const wanted = prefix + name;
    if (isSafeName(wanted) && !table.hasModelName(wanted)) table.set(name, wanted);
    else repaired.push(name);
  }
  for (const name of repaired) {
    if (table.modelName(name) !== undefined) continue; // a server listing a name twice
    table.set(
      name,
      repair(prefix + name, (candidate) => table.hasModelName(candidate)),
    );
  }
  return table;
}

export class NameTable implements ToolNameMap {
  readonly #toServer = new Map<string, string>();
  readonly #toModel = new Map<string, string>();

  set(serverName: string, modelName: string): void {
    this.#toServer.set(modelName, serverName);
    this.#toModel.set(serverName, modelName);
  }

  hasModelName(modelName: string): boolean {
    return this.#toServer.has(modelName);
  }

  serverName(modelName: string): string | undefined {
    return this.#toServer.get(modelName);
  }

  modelName(serverName: string): string | undefined {
    return this.#toModel.get(serverName);
  }
}

function repair(wanted: string, taken: (name: string) => boolean): string {
  const base = wanted.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  let candidate = base.length <= MAX_LENGTH ? base : withSuffix(base, hash(wanted));
  for (let attempt = 1; taken(candidate); attempt++) {
    candidate = withSuffix(base, hash(`${wanted}#${attempt}`));
  }
  return candidate;
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_LENGTH - suffix.length - 1)}_${suffix}`;
}

/** FNV-1a, 32 bits, in base 36: short, stable across runs and platforms. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(36);
}
