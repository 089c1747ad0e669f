/**
 * Where an MCP-lite server listens. The seed names `/listtools` and `/calltools` in its text and
 * uses `/tools` and `/rpc` in its examples, so both pairs are tried; the pair that answers is
 * remembered, and a URL that already ends in one of the four names says where the base is.
 */

const LISTING = ['listtools', 'tools'] as const;
const CALLS = ['calltools', 'rpc'] as const;
const NAMES = new Set<string>([...LISTING, ...CALLS]);

/** The base URL when `url` names one of MCP-lite's endpoints, else undefined. */
export function hintedBase(url: string): string | undefined {
  const parsed = new URL(url);
  const segments = parsed.pathname.replace(/\/+$/, '').split('/');
  const last = segments.at(-1) ?? '';
  if (!NAMES.has(last)) return undefined;
  parsed.pathname = segments.slice(0, -1).join('/') || '/';
  return parsed.href;
}

/** `{base}/{name}`, keeping the base's query string. */
function join(base: string, name: string): string {
  const parsed = new URL(base);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/${name}`;
  return parsed.href;
}

export class Endpoints {
  readonly base: string;
  #listing: string[];
  #calls: string[];

  constructor(url: string) {
    this.base = hintedBase(url) ?? url;
    this.#listing = LISTING.map((name) => join(this.base, name));
    this.#calls = CALLS.map((name) => join(this.base, name));
  }

  /** Discovery URLs, the one known to work first. */
  get listing(): readonly string[] {
    return this.#listing;
  }

  /** Call URLs, the one known to work first. */
  get calls(): readonly string[] {
    return this.#calls;
  }

  /** Discovery answered at `url`: its partner goes first for calls (`/tools` pairs with `/rpc`). */
  listedAt(url: string): void {
    const index = this.#listing.indexOf(url);
    if (index <= 0) return;
    this.#listing = [url, ...this.#listing.filter((other) => other !== url)];
    const partner = this.#calls[index];
    if (partner) this.#calls = [partner, ...this.#calls.filter((other) => other !== partner)];
  }

  /** A call answered at `url`: it goes first from now on. */
  calledAt(url: string): void {
    this.#calls = [url, ...this.#calls.filter((other) => other !== url)];
  }
}
