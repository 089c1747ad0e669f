/**
 * A card's remote as client options: streamable HTTP before the deprecated SSE; where the card
 * lists protocol versions, only a remote sharing one with toolwire, and the era those shared
 * versions allow (negotiation still asks the server, whose answer wins); the URL's variables
 * and the headers filled through the application's inputs.
 */

import { isLoopback, refusalToReach } from '../auth/reach.ts';
import type { ClientOptions } from '../client/options.ts';
import { DiscoveryError } from '../core/errors.ts';
import { LEGACY_VERSIONS, MODERN_VERSIONS, type ProtocolChoice } from '../dialects/versions.ts';
import { fillInput, fillTemplate, type InputSource } from './inputs.ts';
import type { RemoteSpec, ServerCard } from './types.ts';

const KNOWN: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

/** A remote to connect to, and what is secret in it (for a caller writing it down). */
export interface ChosenRemote {
  remote: RemoteSpec;
  url: string;
  headers: Record<string, string>;
  /** Names of the headers a secret went into. */
  secretHeaders: string[];
  /** True when a secret went into the URL. */
  secretUrl: boolean;
  options: Pick<ClientOptions, 'protocolVersion' | 'dialect'>;
}

/** The remotes worth trying, best first. */
export function rankRemotes(card: ServerCard): RemoteSpec[] {
  const usable = (card.remotes ?? []).filter(
    (remote) =>
      remote.supportedProtocolVersions === undefined ||
      remote.supportedProtocolVersions.some((version) => KNOWN.includes(version)),
  );
  return [
    ...usable.filter((remote) => remote.type === 'streamable-http'),
    ...usable.filter((remote) => remote.type === 'sse'),
  ];
}

export async function chooseRemote(
  card: ServerCard,
  source: InputSource | undefined,
): Promise<ChosenRemote> {
  const [remote] = rankRemotes(card);
  if (!remote) {
    throw new DiscoveryError(
      'card',
      (card.remotes ?? []).length === 0
        ? `${card.name} has no remote`
        : `${card.name} has no remote speaking a protocol version toolwire knows`,
      card.source ? { url: card.source } : {},
    );
  }
  const filledUrl = await fillTemplate(
    remote.url,
    remote.variables,
    (name) => `variable:${name}`,
    source,
  );
  const url = filledUrl.value;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url) || /\{[A-Za-z_]\w*\}/.test(url)) {
    // The URL itself is not told: a secret variable may be in it.
    throw new DiscoveryError('card', `${card.name}'s remote URL is not an http(s) URL once filled`);
  }
  // A card read from a stranger's domain names where the client connects: the rule of what a
  // server names for authorization holds here too (never into the user's network).
  const parsed = new URL(url);
  const refusal = card.source ? refusalToReach(parsed, new URL(card.source)) : undefined;
  if (refusal) {
    throw new DiscoveryError('card', `${card.name}'s remote is refused: ${refusal}`, {
      url: card.source,
    });
  }
  const headers: Record<string, string> = {};
  const secretHeaders: string[] = [];
  for (const header of remote.headers ?? []) {
    const filled = await fillInput(`header:${header.name}`, header.name, header, source);
    if (!filled) continue;
    headers[header.name] = filled.value;
    if (filled.secret) secretHeaders.push(header.name);
  }
  if (
    (secretHeaders.length > 0 || filledUrl.secret) &&
    parsed.protocol === 'http:' &&
    !isLoopback(parsed)
  ) {
    throw new DiscoveryError(
      'card',
      `${card.name}'s remote is plain http: the secrets it asks for would cross the network in the clear`,
    );
  }
  return {
    remote,
    url,
    headers,
    secretHeaders,
    secretUrl: filledUrl.secret,
    options: {
      ...(remote.type === 'sse' ? { dialect: 'mcp-sse' as const } : {}),
      ...eraOf(remote.supportedProtocolVersions),
    },
  };
}

function eraOf(versions: readonly string[] | undefined): { protocolVersion?: ProtocolChoice } {
  if (!versions) return {};
  const modern = versions.some((v) => (MODERN_VERSIONS as readonly string[]).includes(v));
  const legacy = versions.some((v) => (LEGACY_VERSIONS as readonly string[]).includes(v));
  if (modern && !legacy) return { protocolVersion: 'modern' };
  if (legacy && !modern) return { protocolVersion: 'legacy' };
  return {};
}
