/**
 * The values a card or entry asks for, filled through the application: a fixed `value` (with its
 * own `{variables}`), else what the application gives, else the `default`; then checked against
 * `choices` and `format`. Errors name the input, never its value: a secret stays out of them.
 */
import { MissingInputError } from '../core/errors.ts';
import type { InputSpec } from './types.ts';

/** One value asked of the application. */
export interface InputRequest {
  /** Stable and unique within the card: `variable:tenant`, `header:Authorization`, `header:Authorization.token`, `env:API_KEY`, `argument:--port`. */
  key: string;
  /** What the input is, for a person: its name. */
  name: string;
  spec: Readonly<InputSpec>;
}

/** The application's values: by key (or by bare name), or a function asked for each one. */
export type InputSource =
  | Readonly<Record<string, string>>
  | ((request: InputRequest) => string | undefined | Promise<string | undefined>);

/** A value filled in, and whether a secret went into it. */
export interface Filled {
  value: string;
  secret: boolean;
}

/** Asks for and checks one input; `undefined` for an optional one nobody gave. */
export async function fillInput(
  key: string,
  name: string,
  spec: InputSpec,
  source: InputSource | undefined,
): Promise<Filled | undefined> {
  if (spec.value !== undefined) {
    const filled = await fillTemplate(
      spec.value,
      spec.variables,
      (name) => `${key}.${name}`,
      source,
    );
    return { value: filled.value, secret: filled.secret || spec.isSecret === true };
  }
  const given = await ask(source, { key, name, spec });
  const value = given ?? spec.default;
  if (value === undefined || value === '') {
    if (spec.isRequired) throw new MissingInputError(key, 'required and not given');
    return undefined;
  }
  check(key, spec, value);
  return { value, secret: spec.isSecret === true };
}

async function ask(
  source: InputSource | undefined,
  request: InputRequest,
): Promise<string | undefined> {
  if (source === undefined) return undefined;
  if (typeof source === 'function') {
    const value = await source(request);
    if (value !== undefined && typeof value !== 'string') {
      throw new TypeError(`the input source gave ${request.key} a ${typeof value}, not a string`);
    }
    return value;
  }
  return Object.hasOwn(source, request.key)
    ? source[request.key]
    : Object.hasOwn(source, request.name)
      ? source[request.name]
      : undefined;
}

function check(key: string, spec: InputSpec, value: string): void {
  if (spec.choices && spec.choices.length > 0 && !spec.choices.includes(value)) {
    throw new MissingInputError(key, `not one of its ${spec.choices.length} choices`);
  }
  if (spec.format === 'number' && (value.trim() === '' || !Number.isFinite(Number(value)))) {
    throw new MissingInputError(key, 'not a number');
  }
  if (spec.format === 'boolean' && value !== 'true' && value !== 'false') {
    throw new MissingInputError(key, 'not true or false');
  }
}

const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * `template` with each `{name}` of `variables` filled (each an input of its own, keyed by
 * `keyOf(name)`); a `{name}` the map does not have stays as it is, as the registry's schema says.
 */
export async function fillTemplate(
  template: string,
  variables: Readonly<Record<string, InputSpec>> | undefined,
  keyOf: (name: string) => string,
  source: InputSource | undefined,
): Promise<Filled> {
  const values = new Map<string, Filled | undefined>();
  for (const [, name] of template.matchAll(VARIABLE)) {
    if (values.has(name!) || !variables || !Object.hasOwn(variables, name!)) continue;
    values.set(name!, await fillInput(keyOf(name!), name!, variables[name!]!, source));
  }
  let secret = false;
  const value = template.replace(VARIABLE, (whole, name: string) => {
    const filled = values.get(name);
    if (!filled) return values.has(name) ? '' : whole;
    secret ||= filled.secret;
    return filled.value;
  });
  return { value, secret };
}
