/**
 * The `toolwire` command in a real terminal (tmux), driven as a person would: a form filled in
 * field by field, a sampling request answered, a URL flow confirmed, progress drawn as a bar, and
 * Ctrl-C during a task or a call, which the server must see as a cancellation.
 */
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { needs, service } from '../helpers/services.ts';
import { TmuxTerminal } from '../helpers/tmux.ts';
import { TOOLWIRE_BIN } from '../helpers/toolwire.ts';
import { waitFor } from '../helpers/wait-for.ts';

// .ci/run installs tmux when it is missing; elsewhere these tests are skipped without it.
const tmux = service('tmux');

const SURVEY = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name' },
    language: { type: 'string', title: 'Favourite language', enum: ['TypeScript', 'Python', 'Go'] },
    years: { type: 'integer', title: 'Years of programming', minimum: 0, default: 3 },
    newsletter: { type: 'boolean', title: 'Subscribe to the newsletter', default: false },
  },
  required: ['name', 'language'],
};

describe('toolwire in a terminal', () => {
  needs(tmux);
  let server: ReferenceServer;
  let terminal: TmuxTerminal | undefined;
  const toolwire = (...args: string[]) => {
    terminal = TmuxTerminal.start([process.execPath, TOOLWIRE_BIN, ...args]);
    return terminal;
  };

  beforeAll(async () => {
    server = await startReferenceServer({ dualEra: true });
  });
  afterEach(() => terminal?.close());
  afterAll(() => server.close());

  it.each([
    ['2026-07-28', 'auto'],
    ['2025-11-25', '2025-11-25'],
  ])('asks a form field by field, checks what is typed, and sends it (%s)', async (_, protocol) => {
    const screen = toolwire(
      'call',
      server.url,
      'elicit',
      'message=Tell us about yourself',
      `requestedSchema:=${JSON.stringify(SURVEY)}`,
      '--protocol',
      protocol,
    );
    await screen.waitFor('Tell us about yourself');
    await screen.waitFor(/◆ +Your name/);
    screen.press('Enter');
    await screen.waitFor('This field is required.');
    screen.type('Grace');
    screen.press('Enter');
    await screen.waitFor(/◆ +Favourite language/);
    screen.press('Down', 'Enter');
    await screen.waitFor(/◆ +Years of programming \(optional\)/);
    screen.type('1.5');
    screen.press('Enter');
    await screen.waitFor('Enter a whole number.');
    screen.press('BSpace', 'BSpace', 'BSpace');
    screen.type('12');
    screen.press('Enter');
    await screen.waitFor(/◆ +Subscribe to the newsletter \(optional\)/);
    // y (or n) answers a yes/no question at once.
    screen.type('y');
    await screen.waitFor(/◆ +Send this to toolwire-reference-server\?/);
    screen.press('Enter');
    expect(await screen.exitStatus()).toBe(0);
    const answer = JSON.parse(
      /\{[\s\S]*\}/.exec(screen.screen().split('Sent.')[1] ?? '')?.[0] ?? '',
    );
    expect(answer).toEqual({
      answers: [
        {
          action: 'accept',
          content: { name: 'Grace', language: 'Python', years: 12, newsletter: true },
        },
      ],
    });
  });

  it('declines a form when the user says not to send it, and cancels it on Esc', async () => {
    const declined = toolwire(
      'call',
      server.url,
      'elicit',
      'message=Name?',
      '--protocol',
      'legacy',
    );
    await declined.waitFor(/◆ +Name/);
    declined.type('Ada');
    declined.press('Enter');
    await declined.waitFor(/◆ +Send this to/);
    declined.type('n');
    expect(await declined.exitStatus()).toBe(0);
    expect(declined.screen()).toMatch(/"action": "decline"/);
    declined.close();

    const cancelled = toolwire('call', server.url, 'elicit', 'message=Name?');
    await cancelled.waitFor(/◆ +Name/);
    cancelled.press('Escape');
    expect(await cancelled.exitStatus()).toBe(0);
    expect(cancelled.screen()).toMatch(/"action": "cancel"/);
  });

  it("answers a sampling request with the user's words", async () => {
    const screen = toolwire('call', server.url, 'sample', 'prompt=Say hi to the reader');
    await screen.waitFor('user: Say hi to the reader');
    await screen.waitFor(/◆ +Your answer/);
    screen.type('Hello, reader!');
    screen.press('Enter');
    expect(await screen.exitStatus()).toBe(0);
    expect(screen.screen()).toMatch(
      /"text": "Hello, reader!"[\s\S]*"model": "human \(toolwire CLI\)"/,
    );
  });

  it('shows the page a URL elicitation names, and reports it done when the user says so', async () => {
    const screen = toolwire(
      'call',
      server.url,
      'elicit_url',
      'url=https://pay.example.com/checkout?id=7',
      'completeAfterMs=0',
      '--protocol',
      'legacy',
    );
    await screen.waitFor('asks you to open a page on pay.example.com');
    await screen.waitFor('https://pay.example.com/checkout?id=7');
    screen.press('Enter');
    expect(await screen.exitStatus()).toBe(0);
    expect(screen.screen()).toMatch(/"action": "accept"/);
  });

  it('draws progress as a bar, then leaves only the result', async () => {
    const screen = toolwire('call', server.url, 'progress', 'steps=8', 'delayMs=300');
    await screen.waitFor(/[█░]{24} \d\/8 step \d/);
    expect(await screen.exitStatus()).toBe(0);
    // The bar is gone; what stays is the result (and tmux's note that the pane is dead).
    expect(screen.screen()).toMatch(/^done after 8 steps/);
    expect(screen.screen()).not.toMatch(/[█░]/);
  });

  it('under CI, writes progress as plain lines, since a log would keep every redrawn frame', async () => {
    const screen = TmuxTerminal.start(
      [process.execPath, TOOLWIRE_BIN, 'call', server.url, 'progress', 'steps=3', 'delayMs=50'],
      { env: { CI: 'true' } },
    );
    terminal = screen;
    expect(await screen.exitStatus()).toBe(0);
    expect(screen.screen()).not.toMatch(/[█░]/);
    expect(screen.screen()).toMatch(/progress 1\/3[\s\S]*progress 3\/3[\s\S]*done after 3 steps/);
  });

  it.each([
    ['2026-07-28', []],
    ['2025-11-25', ['--protocol', '2025-11-25', '--task']],
  ])('Ctrl-C during a task cancels it on the server (%s)', async (_, flags) => {
    const before = server.tasks.length;
    const screen = toolwire(
      'call',
      server.url,
      'slow_task',
      'ms=60000',
      'pollIntervalMs=100',
      ...flags,
    );
    await screen.waitFor('task working');
    screen.press('C-c');
    expect(await screen.exitStatus()).toBe(130);
    expect(screen.screen()).toContain('interrupted; the server was told to stop');
    await waitFor(() => server.tasks.length > before && server.tasks.at(-1)?.cancelled === true);
    expect(server.tasks.at(-1)).toMatchObject({ tool: 'slow_task', cancelled: true });
  });

  it('Ctrl-C during a plain call cancels the request on the server', async () => {
    const before = { cancelled: server.cancelled.length, log: server.log.length };
    const screen = toolwire('call', server.url, 'slow', 'ms=60000', '--protocol', 'legacy');
    // The request is in once the server has logged the call.
    await screen.until(
      () =>
        server.log
          .slice(before.log)
          .some((entry) => JSON.stringify(entry.body ?? '').includes('"name":"slow"')),
      'the call',
    );
    screen.press('C-c');
    expect(await screen.exitStatus()).toBe(130);
    await waitFor(() => server.cancelled.length > before.cancelled);
  });

  it('runs the guided demo (npm start) with the form answered in the terminal', async () => {
    const screen = toolwire('demo');
    // The demo prints the command first, whose schema names the fields too: wait for the prompts.
    await screen.waitFor(/◆ +Your name/, 60_000);
    screen.type('Grace');
    screen.press('Enter');
    for (const field of [
      'Favourite language',
      'Years of programming',
      'Subscribe to the newsletter',
    ]) {
      await screen.waitFor(new RegExp(`◆ +${field}`));
      screen.press('Enter');
    }
    await screen.waitFor(/◆ +Send this to/);
    screen.press('Enter');
    expect(await screen.exitStatus(60_000)).toBe(0);
    const shown = screen.screen();
    expect(shown).toContain('"name": "Grace"');
    expect(shown).toContain('"language": "TypeScript"');
    expect(shown).toContain('Now point it at a real server:');
  }, 90_000);
});
