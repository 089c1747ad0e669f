/**
 * `WWW-Authenticate` as RFC 9110 §11.6.1 has it: challenges, each a scheme with auth-params (or a
 * token68). Read leniently: a server that gets the grammar slightly wrong still gets understood.
 */

export interface Challenge {
  /** The scheme, lower-cased (`bearer`, `dpop`). */
  scheme: string;
  /** Auth-params by lower-cased name, quoted strings unquoted. */
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

export function parseChallenges(header: string | undefined): Challenge[] {
  const challenges: Challenge[] = [];
  if (!header) return challenges;
  let rest = header.trim();
  let current: Challenge | undefined;
  while (rest.length > 0) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (!name) break;
    rest = rest.slice(name.length);
    const afterSpaces = rest.replace(/^\s+/, '');
    if (afterSpaces.startsWith('=') && current && !afterSpaces.startsWith('==')) {
      // name=value: a parameter of the current challenge.
      rest = afterSpaces.slice(1).replace(/^\s+/, '');
      let value: string;
      if (rest.startsWith('"')) {
        value = '';
        let i = 1;
        for (; i < rest.length && rest[i] !== '"'; i++) {
          if (rest[i] === '\\' && i + 1 < rest.length) i++;
          value += rest[i];
        }
        rest = rest.slice(i + 1);
      } else {
        value = TOKEN.exec(rest)?.[0] ?? '';
        rest = rest.slice(value.length);
      }
      current.params[name.toLowerCase()] = value;
      continue;
    }
    // A new challenge; a token68 after the scheme is kept under its own name.
    current = { scheme: name.toLowerCase(), params: {} };
    challenges.push(current);
    rest = afterSpaces;
    const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(rest)?.[0];
    if (token68 && !/=[^=]/.test(token68)) {
      current.params['token68'] = token68;
      rest = rest.slice(token68.length);
    }
  }
  return challenges;
}

/** The first Bearer or DPoP challenge: the one OAuth speaks. */
export function oauthChallenge(challenges: Challenge[]): Challenge | undefined {
  return challenges.find((c) => c.scheme === 'bearer' || c.scheme === 'dpop');
}

/** The scopes a challenge names, split on spaces. */
export function challengedScopes(challenge: Challenge | undefined): string[] | undefined {
  const scope = challenge?.params['scope'];
  return scope === undefined ? undefined : scope.split(/\s+/).filter(Boolean);
}
