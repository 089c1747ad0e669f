/**
 * Real tokenizers, loaded only when counting is asked for: both are optional peers of the client,
 * so nobody who never counts installs or loads them. A missing one fails with what to install.
 */

/** The tokenizers `toolTokens` knows by name: OpenAI's o200k_base, and Anthropic's. */
export type TokenizerName = 'o200k' | 'claude';
/** Counts the tokens of one text. */
export type TokenCounter = (text: string) => number;

const loaded = new Map<TokenizerName, Promise<TokenCounter>>();

/** The counter for `name`, its package imported on first use and kept. */
export function loadTokenizer(name: TokenizerName): Promise<TokenCounter> {
  let counter = loaded.get(name);
  if (!counter) {
    counter = name === 'o200k' ? o200k() : name === 'claude' ? claude() : unknownName(name);
    // A failed load (not installed) is tried again next time: the user may install it meanwhile.
    counter.catch(() => loaded.delete(name));
    loaded.set(name, counter);
  }
  return counter;
}

async function o200k(): Promise<TokenCounter> {
  // The lite entry and one rank file: the full package would load every encoding.
  const [{ Tiktoken }, ranks] = await Promise.all([
    importOrExplain<{ Tiktoken: new (ranks: unknown) => { encode(text: string): number[] } }>(
      'js-tiktoken/lite',
      'js-tiktoken',
      'o200k',
    ),
    importOrExplain<{ default: unknown }>('js-tiktoken/ranks/o200k_base', 'js-tiktoken', 'o200k'),
  ]);
  const encoder = new Tiktoken(ranks.default);
  return (text) => encoder.encode(text).length;
}

async function claude(): Promise<TokenCounter> {
  const module = await importOrExplain<{
    default?: { getTokenizer(): { encode(text: string, special?: string): ArrayLike<number> } };
    getTokenizer?(): { encode(text: string, special?: string): ArrayLike<number> };
  }>('@anthropic-ai/tokenizer', '@anthropic-ai/tokenizer', 'claude');
  // A CommonJS package: its functions come as named exports or on the default one.
  const getTokenizer = module.getTokenizer ?? module.default?.getTokenizer;
  if (!getTokenizer) throw new Error('@anthropic-ai/tokenizer has no getTokenizer()');
  // One tokenizer kept: it is WebAssembly, costly to make at every count. `all`: text is text.
  const tokenizer = getTokenizer();
  return (text) => tokenizer.encode(text.normalize('NFKC'), 'all').length;
}

function unknownName(name: string): Promise<TokenCounter> {
  return Promise.reject(
    new TypeError(`tokenizer must be 'o200k', 'claude' or a function, got ${JSON.stringify(name)}`),
  );
}

/** `specifier` imported; not installed, an error that says what to install. */
export async function importOrExplain<T>(
  specifier: string,
  install: string,
  name: string,
): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(
        `counting tokens with '${name}' needs the optional package ${install}: npm install ${install}`,
        { cause: error },
      );
    }
    throw error;
  }
}
