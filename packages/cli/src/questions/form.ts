/**
 * A form elicitation as prompts, one field at a time: a choice for an enum, several for a list of
 * them, yes/no for a boolean, checked text for numbers, dates, e-mail addresses and URIs. The
 * defaults are there to take with Enter; Esc or Ctrl-C cancels the form; the last question is
 * whether to send it (no: decline).
 */
import type {
  ElicitationResult,
  FormElicitation,
  FormField,
  FormValue,
  HandlerContext,
  JsonObject,
} from '@toolwire/client';
import { printable, visible } from '../printable.ts';
import type { Terminal } from '../terminal.ts';

/** What a field offers to choose from, from `enum` (+ legacy `enumNames`) or titled `oneOf`/`anyOf`. */
export interface Choice {
  value: string;
  label: string;
}

const SKIP = Symbol('skip');

export async function askForm(
  request: FormElicitation,
  context: HandlerContext,
  terminal: Terminal,
): Promise<ElicitationResult> {
  const prompts = await import('@clack/prompts');
  const common = {
    input: terminal.streams.stdin,
    output: terminal.streams.stderr,
    signal: context.signal,
  };
  // The prompts write to stderr themselves: every word of the server's is cleaned on the way in.
  const server = visible(context.server.name);
  prompts.intro(`${server} asks:`, common);
  if (request.message !== '') prompts.log.message(printable(request.message), common);
  const { properties, required = [] } = request.requestedSchema;
  const content: Record<string, FormValue> = {};
  for (const [name, field] of Object.entries(properties)) {
    const isRequired = required.includes(name);
    const message = printable(
      `${field.title ?? name}${isRequired ? '' : ' (optional)'}${field.description ? `: ${field.description}` : ''}`,
    );
    const choices = shown(choicesOf(field));
    let value: unknown;
    if (field.type === 'array') {
      const items = shown(choicesOf(asObject(field['items']))) ?? [];
      value = await prompts.multiselect({
        ...common,
        message,
        options: items,
        initialValues: Array.isArray(field.default) ? field.default : [],
        required: isRequired && Number(field['minItems'] ?? 1) > 0,
      });
    } else if (choices) {
      const options: Array<{ value: string | typeof SKIP; label: string }> = [...choices];
      if (!isRequired && field.default === undefined)
        options.push({ value: SKIP, label: '(leave empty)' });
      value = await prompts.select({
        ...common,
        message,
        options,
        ...(typeof field.default === 'string' ? { initialValue: field.default } : {}),
      });
    } else if (field.type === 'boolean') {
      value = await prompts.confirm({ ...common, message, initialValue: field.default === true });
    } else {
      const text = await prompts.text({
        ...common,
        message,
        ...(field.default === undefined
          ? {}
          : {
              placeholder: printable(String(field.default)),
              defaultValue: String(field.default),
            }),
        // Left empty, a field with a default takes it; one without is left out, if it may be.
        validate: (input) =>
          fieldProblem(field, input ?? '', isRequired && field.default === undefined),
      });
      if (prompts.isCancel(text)) value = text;
      else value = text === undefined || text === '' ? SKIP : typed(field, text);
    }
    if (prompts.isCancel(value)) return cancelled(prompts, common);
    if (value !== SKIP) content[name] = value as FormValue;
  }
  const send = await prompts.confirm({
    ...common,
    message: `Send this to ${server}?`,
  });
  if (prompts.isCancel(send)) return cancelled(prompts, common);
  prompts.outro(send ? 'Sent.' : 'Declined.', common);
  return send ? { action: 'accept', content } : { action: 'decline' };
}

/** Choices as the prompt shows them: the labels cleaned, the values sent back as they came. */
function shown(choices: Choice[] | undefined): Choice[] | undefined {
  return choices?.map((choice) => ({ value: choice.value, label: printable(choice.label) }));
}

/** Without a person to ask: accept when every required field has a default (`--yes`). */
export function acceptDefaults(request: FormElicitation): ElicitationResult | undefined {
  const { properties, required = [] } = request.requestedSchema;
  const unfilled = required.filter((name) => properties[name]?.default === undefined);
  // The client fills in every default the answer leaves out.
  return unfilled.length === 0 ? { action: 'accept', content: {} } : undefined;
}

/** The required fields no default covers, for the message when nobody can fill them in. */
export function fieldsWithoutDefaults(request: FormElicitation): string[] {
  const { properties, required = [] } = request.requestedSchema;
  return required.filter((name) => properties[name]?.default === undefined);
}

export function choicesOf(field: JsonObject | undefined): Choice[] | undefined {
  if (!field) return undefined;
  const titled = [field['oneOf'], field['anyOf']].find(Array.isArray);
  if (titled) {
    return titled.filter(isObject).map((option) => ({
      value: String(option['const']),
      label: String(option['title'] ?? option['const']),
    }));
  }
  if (!Array.isArray(field['enum'])) return undefined;
  const names = Array.isArray(field['enumNames']) ? field['enumNames'] : [];
  return field['enum'].map((value, index) => ({
    value: String(value),
    label: String(names[index] ?? value),
  }));
}

/** What is wrong with the text typed for `field`, or undefined when it will do. */
export function fieldProblem(
  field: FormField,
  input: string,
  required: boolean,
): string | undefined {
  if (input === '') return required ? 'This field is required.' : undefined;
  if (field.type === 'number' || field.type === 'integer') {
    const number = Number(input);
    if (input.trim() === '' || !Number.isFinite(number)) return 'Enter a number.';
    if (field.type === 'integer' && !Number.isInteger(number)) return 'Enter a whole number.';
    if (typeof field['minimum'] === 'number' && number < field['minimum']) {
      return `At least ${field['minimum']}.`;
    }
    if (typeof field['maximum'] === 'number' && number > field['maximum']) {
      return `At most ${field['maximum']}.`;
    }
    return undefined;
  }
  const length = [...input].length;
  if (typeof field['minLength'] === 'number' && length < field['minLength']) {
    return `At least ${field['minLength']} characters.`;
  }
  if (typeof field['maxLength'] === 'number' && length > field['maxLength']) {
    return `At most ${field['maxLength']} characters.`;
  }
  switch (field['format']) {
    case 'email':
      return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input) ? undefined : 'Enter an e-mail address.';
    case 'uri':
      return URL.canParse(input) ? undefined : 'Enter a URI, like https://example.com.';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(input) && !Number.isNaN(Date.parse(input))
        ? undefined
        : 'Enter a date as YYYY-MM-DD.';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T/.test(input) && !Number.isNaN(Date.parse(input))
        ? undefined
        : 'Enter a date and time, like 2026-07-28T09:30:00Z.';
    default:
      return undefined;
  }
}

function typed(field: FormField, text: string): FormValue {
  return field.type === 'number' || field.type === 'integer' ? Number(text) : text;
}

function cancelled(
  prompts: typeof import('@clack/prompts'),
  common: { output: NodeJS.WriteStream },
): ElicitationResult {
  prompts.cancel('Cancelled.', common);
  return { action: 'cancel' };
}

function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
