/**
 * Tool-definition pinning, for the adapters: each tool's definition as a model sees it (its name,
 * description and input schema) is fingerprinted when it is first seen, and a later listing whose
 * definition differs is refused (the tool is left out) or reported before any model sees it.
 * The threat is a server that rewrites a description into an instruction after it was trusted.
 *
 * Fingerprints are the AI SDK's (`fingerprintTools` in `ai`): SHA-256, base64url, over the
 * canonical JSON of `{ description, inputSchema, title }`, keyed by tool name. A baseline stored
 * from either can be checked by the other, and `detectToolDrift` reads `pins.fingerprints`.
 */

import { sha256 } from '../core/digest.ts';

/** What changed between the pinned definitions and a listing (`detectToolDrift`'s shape). */
export interface ToolDrift {
  /** Tools seen for the first time (pinned now). */
  added: string[];
  /** Pinned tools the listing no longer has (their pins are kept). */
  removed: string[];
  /** Tools whose definition differs from the pinned one. */
  changed: string[];
  /** Of `changed`, those left out of the tool set (`onChange: 'refuse'`). */
  refused: string[];
}

export interface ToolPinsOptions {
  /**
   * Fingerprints to trust from the start (a stored `pins.fingerprints`, or `fingerprintTools`
   * output); tools not in it are pinned when first seen.
   */
  baseline?: Readonly<Record<string, string>>;
  /**
   * A changed definition: `'refuse'` leaves the tool out (and keeps the old pin, until
   * `accept()`); `'report'` keeps it and pins the new definition. Both call `onDrift` first.
   * @default 'refuse'
   */
  onChange?: 'refuse' | 'report';
  /** Hears every drift, before the tool set that reflects it is handed over. */
  onDrift?: (drift: ToolDrift) => void;
}

/** The part of a tool definition a fingerprint covers. */
export interface PinnedDefinition {
  description?: string | undefined;
  inputSchema: unknown;
  title?: string | undefined;
}

/** The fingerprint of one definition, byte for byte what `fingerprintTools` gives. */
export function toolFingerprint(definition: PinnedDefinition): string {
  const description =
    definition.description === undefined
      ? { type: 'none' }
      : { type: 'string', value: definition.description };
  const canonical = canonicalJson({
    description,
    inputSchema: definition.inputSchema,
    title: definition.title,
  });
  return sha256(canonical, 'base64url');
}

/**
 * The AI SDK's canonical JSON: keys sorted at every level, `undefined` written as the AI SDK
 * writes it (a literal `undefined` for a key, `null` in an array), so digests agree.
 */
function canonicalJson(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') {
    return String(JSON.stringify(value));
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/** The pins of one tool set (or several: share one `ToolPins` between them). */
export class ToolPins {
  readonly #pinned = new Map<string, string>();
  /** The latest fingerprint of each refused tool, for `accept()`. */
  readonly #refused = new Map<string, string>();
  readonly #onChange: 'refuse' | 'report';
  readonly #onDrift: ((drift: ToolDrift) => void) | undefined;
  #reviewed: boolean;

  constructor(options: ToolPinsOptions = {}) {
    const { baseline, onChange = 'refuse', onDrift } = options;
    if (onChange !== 'refuse' && onChange !== 'report') {
      throw new TypeError(
        `expected \`onChange\` to be 'refuse' or 'report', got ${String(onChange)}`,
      );
    }
    if (onDrift !== undefined && typeof onDrift !== 'function') {
      throw new TypeError('expected `onDrift` to be a function');
    }
    for (const [name, digest] of Object.entries(baseline ?? {})) {
      if (typeof digest !== 'string') throw new TypeError(`expected a fingerprint for "${name}"`);
      this.#pinned.set(name, digest);
    }
    this.#onChange = onChange;
    this.#onDrift = onDrift;
    this.#reviewed = baseline !== undefined;
  }

  /** The pinned fingerprints by tool name: store them to pin across restarts (`baseline`). */
  get fingerprints(): Record<string, string> {
    return Object.fromEntries(this.#pinned);
  }

  /**
   * Checks a listing's fingerprints against the pins; pins what is new; reports the drift.
   * Returns the names to leave out.
   */
  review(current: Readonly<Record<string, string>>): ReadonlySet<string> {
    const drift: ToolDrift = { added: [], removed: [], changed: [], refused: [] };
    for (const [name, digest] of Object.entries(current)) {
      const pinned = this.#pinned.get(name);
      if (pinned === undefined) {
        this.#pinned.set(name, digest);
        drift.added.push(name);
      } else if (pinned !== digest) {
        drift.changed.push(name);
        if (this.#onChange === 'refuse') {
          drift.refused.push(name);
          this.#refused.set(name, digest);
        } else this.#pinned.set(name, digest);
      } else this.#refused.delete(name);
    }
    for (const name of this.#pinned.keys()) {
      if (!Object.hasOwn(current, name)) drift.removed.push(name);
    }
    // The first listing without a baseline is what gets trusted: nothing has drifted yet.
    const first = !this.#reviewed;
    this.#reviewed = true;
    if (!first && (drift.added.length || drift.removed.length || drift.changed.length)) {
      this.#onDrift?.(drift);
    }
    return new Set(drift.refused);
  }

  /** Trusts the refused definitions as they are now (all, or the named ones): they are pinned anew. */
  accept(names?: readonly string[]): void {
    for (const [name, digest] of this.#refused) {
      if (names && !names.includes(name)) continue;
      this.#pinned.set(name, digest);
      this.#refused.delete(name);
    }
  }
}
