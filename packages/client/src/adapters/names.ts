/**
 * Tool names every model provider accepts (`^[a-zA-Z0-9_-]{1,64}$`: OpenAI, Anthropic and Gemini
 * agree on it), one rule for both adapters and for `createMcpClients`' `server__tool` names, so
 * one server's tools have the same names in the AI SDK and in LangChain. A name that is already
 * safe is never changed, and never given to another tool; the others are repaired
 * deterministically (characters replaced, cut, a short hash added), so a name a model saw in an
 * earlier turn still means the same tool.
 */

const SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/** Model-side names and server-side names, both ways. */
export interface ToolNameMap {
  /** The server's name of the tool the model knows as `modelName`. */
  serverName(modelName: string): string | undefined;
  /** The name the model knows the server's tool `serverName` by. */
  modelName(serverName: string): string | undefined;
}

/** Gives each of a server's tools a provider-safe, unique name: `prefix + name`, repaired when needed. */
export function providerToolNames(
  serverNames: readonly string[],
  options: { prefix?: string } = {},
): ToolNameMap {
  const prefix = options.prefix ?? '';
  const safe = safeNames(serverNames.map((name) => prefix + name));
  const toModel = new Map<string, string>();
  const toServer = new Map<string, string>();
  for (const name of serverNames) {
    const modelName = safe.get(prefix + name)!;
    toModel.set(name, modelName);
    toServer.set(modelName, name);
  }
  return {
    serverName: (modelName) => toServer.get(modelName),
    modelName: (serverName) => toModel.get(serverName),
  };
}

/**
 * A safe, unique name for each wanted name (a name wanted twice is one tool listed twice, and
 * gets one name). Safe names are placed first: a repaired name must never take the place of one
 * that needed no repair, whatever the order of the listing.
 */
export function safeNames(wanted: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const repaired: string[] = [];
  for (const name of wanted) {
    if (names.has(name)) continue;
    if (SAFE_NAME.test(name) && !taken.has(name)) {
      names.set(name, name);
      taken.add(name);
    } else repaired.push(name);
  }
  for (const name of repaired) {
    if (names.has(name)) continue;
    const safe = repair(name, taken);
    names.set(name, safe);
    taken.add(safe);
  }
  return names;
}

function repair(wanted: string, taken: ReadonlySet<string>): string {
  const base = wanted.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  let candidate = base.length <= MAX_LENGTH ? base : withSuffix(base, hash(wanted));
  // A hash of the name itself rather than a counter: the suffix does not depend on the order.
  for (let attempt = 1; taken.has(candidate); attempt++) {
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
