/**
 * A card or server.json as sent, checked into the types of types.ts: what is not the published
 * shape is dropped (an input's unknown field, a remote of an unknown transport) or refused (a
 * card without a name). Counts and lengths are bounded, so a hostile document stays small.
 */
import { DiscoveryError } from '../core/errors.ts';
import type {
  ArgumentSpec,
  InputSpec,
  NamedInput,
  PackageSpec,
  RemoteSpec,
  ServerCard,
} from './types.ts';

const MAX_ITEMS = 64;
const MAX_TEXT = 4096;

/** The fields of the published shapes discovery reads, as sent: anything at all. */
type Field =
  | '_meta'
  | 'choices'
  | 'data'
  | 'default'
  | 'description'
  | 'displayName'
  | 'endpoint'
  | 'entries'
  | 'environmentVariables'
  | 'format'
  | 'headers'
  | 'identifier'
  | 'isLatest'
  | 'isRepeated'
  | 'isRequired'
  | 'isSecret'
  | 'mediaType'
  | 'metadata'
  | 'name'
  | 'nextCursor'
  | 'packageArguments'
  | 'packages'
  | 'placeholder'
  | 'protocolVersion'
  | 'protocolVersions'
  | 'publishedAt'
  | 'registryBaseUrl'
  | 'registryType'
  | 'remotes'
  | 'runtimeArguments'
  | 'runtimeHint'
  | 'server'
  | 'serverInfo'
  | 'servers'
  | 'status'
  | 'supportedProtocolVersions'
  | 'title'
  | 'transport'
  | 'type'
  | 'updatedAt'
  | 'url'
  | 'value'
  | 'valueHint'
  | 'variables'
  | 'version'
  | 'websiteUrl'
  | 'fileSha256'
  | 'card'
  | 'source';

type Loose = Record<string, unknown> & { [key in Field]?: unknown };

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_TEXT ? value : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value.slice(0, MAX_ITEMS) : [];
}

/** Copies the defined fields of `from`, so optional properties stay absent, not undefined. */
function defined<T>(from: { [K in keyof T]?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(from).filter(([, v]) => v !== undefined)) as T;
}

function input(raw: Loose): InputSpec {
  const format = text(raw.format);
  return defined<InputSpec>({
    description: text(raw.description),
    isRequired: raw.isRequired === true ? true : undefined,
    isSecret: raw.isSecret === true ? true : undefined,
    format:
      format === 'string' || format === 'number' || format === 'boolean' || format === 'filepath'
        ? format
        : undefined,
    default: text(raw.default),
    placeholder: text(raw.placeholder),
    value: text(raw.value),
    choices: Array.isArray(raw.choices)
      ? list(raw.choices).filter((c): c is string => typeof c === 'string')
      : undefined,
    variables: isObject(raw.variables) ? variables(raw.variables) : undefined,
  });
}

function variables(raw: Loose): Record<string, InputSpec> {
  const out: Record<string, InputSpec> = Object.create(null);
  for (const [name, spec] of Object.entries(raw).slice(0, MAX_ITEMS)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && isObject(spec)) out[name] = input(spec);
  }
  return out;
}

function named(value: unknown): NamedInput[] {
  return list(value).flatMap((raw) =>
    isObject(raw) && text(raw.name) ? [{ ...input(raw), name: raw.name as string }] : [],
  );
}

function argumentsOf(value: unknown): ArgumentSpec[] {
  return list(value).flatMap((raw): ArgumentSpec[] => {
    if (!isObject(raw) || (raw.type !== 'positional' && raw.type !== 'named')) return [];
    if (raw.type === 'named' && !text(raw.name)) return [];
    return [
      defined<ArgumentSpec>({
        ...input(raw),
        type: raw.type,
        name: text(raw.name),
        valueHint: text(raw.valueHint),
        isRepeated: raw.isRepeated === true ? true : undefined,
      }),
    ];
  });
}

function remote(raw: unknown): RemoteSpec[] {
  if (!isObject(raw) || (raw.type !== 'streamable-http' && raw.type !== 'sse')) return [];
  const url = text(raw.url);
  if (!url || !/^(https?:\/\/|\{[A-Za-z_][A-Za-z0-9_]*\})\S*$/.test(url)) return [];
  const versions = list(raw.supportedProtocolVersions).filter(
    (v): v is string => typeof v === 'string',
  );
  return [
    defined<RemoteSpec>({
      type: raw.type,
      url,
      headers: Array.isArray(raw.headers) ? named(raw.headers) : undefined,
      variables: isObject(raw.variables) ? variables(raw.variables) : undefined,
      supportedProtocolVersions: Array.isArray(raw.supportedProtocolVersions)
        ? versions
        : undefined,
    }),
  ];
}

function packageOf(raw: unknown): PackageSpec[] {
  if (!isObject(raw) || !text(raw.registryType) || !text(raw.identifier)) return [];
  const transport = isObject(raw.transport) ? raw.transport : {};
  const sha = text(raw.fileSha256);
  return [
    defined<PackageSpec>({
      registryType: raw.registryType as string,
      identifier: raw.identifier as string,
      version: text(raw.version),
      registryBaseUrl: text(raw.registryBaseUrl),
      fileSha256: sha && /^[a-f0-9]{64}$/.test(sha) ? sha : undefined,
      runtimeHint: text(raw.runtimeHint),
      transport: defined<PackageSpec['transport']>({
        type: text(transport.type) ?? 'stdio',
        url: text(transport.url),
        headers: Array.isArray(transport.headers) ? named(transport.headers) : undefined,
      }),
      runtimeArguments: Array.isArray(raw.runtimeArguments)
        ? argumentsOf(raw.runtimeArguments)
        : undefined,
      packageArguments: Array.isArray(raw.packageArguments)
        ? argumentsOf(raw.packageArguments)
        : undefined,
      environmentVariables: Array.isArray(raw.environmentVariables)
        ? named(raw.environmentVariables)
        : undefined,
    }),
  ];
}

/**
 * A Server Card or a server.json entry, in either published shape: the current one (`name`,
 * `remotes`, `packages`) or the older well-known card (`serverInfo`, `transport.endpoint`
 * relative to the card's own URL).
 */
export function readCard(raw: unknown, source: string | undefined): ServerCard {
  const where = source === undefined ? {} : { url: source };
  if (!isObject(raw)) throw new DiscoveryError('card', 'not a JSON object', where);
  if (isObject(raw.serverInfo)) return readOlderCard(raw, raw.serverInfo, source);
  const name = text(raw.name);
  if (!name || name.length > 200) throw new DiscoveryError('card', 'has no name', where);
  return defined<ServerCard>({
    name,
    version: text(raw.version),
    title: text(raw.title),
    description: text(raw.description),
    websiteUrl: text(raw.websiteUrl),
    remotes: Array.isArray(raw.remotes) ? list(raw.remotes).flatMap(remote) : undefined,
    packages: Array.isArray(raw.packages) ? list(raw.packages).flatMap(packageOf) : undefined,
    source,
  });
}

function readOlderCard(raw: Loose, info: Loose, source: string | undefined): ServerCard {
  const name = text(info.name);
  if (!name)
    throw new DiscoveryError('card', 'serverInfo has no name', source ? { url: source } : {});
  const transport = isObject(raw.transport) ? raw.transport : {};
  const endpoint = text(transport.endpoint);
  const type = transport.type === 'sse' ? 'sse' : 'streamable-http';
  const base = source ?? undefined;
  const url = endpoint && URL.canParse(endpoint, base) ? new URL(endpoint, base) : undefined;
  const versions = list(raw.supportedProtocolVersions ?? raw.protocolVersions).filter(
    (v): v is string => typeof v === 'string',
  );
  if (typeof raw.protocolVersion === 'string') versions.push(raw.protocolVersion);
  return defined<ServerCard>({
    name,
    version: text(info.version),
    title: text(info.title),
    description: text(raw.description) ?? text(info.description),
    websiteUrl: text(raw.websiteUrl),
    remotes:
      url && (url.protocol === 'https:' || url.protocol === 'http:')
        ? [
            defined<RemoteSpec>({
              type,
              url: url.href,
              supportedProtocolVersions: versions.length > 0 ? versions : undefined,
            }) as RemoteSpec,
          ]
        : undefined,
    source,
  });
}

/** The `server` of a registry API answer (`{ server, _meta }`), as a card. */
export function readRegistryServer(raw: unknown, url: string): ServerCard {
  if (!isObject(raw) || !isObject(raw.server)) {
    throw new DiscoveryError('registry', 'answer has no server', { url });
  }
  const card = readCard(raw.server, undefined);
  return card;
}

export type { Loose };
export { isObject, text };
