import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesGcmSecrets, secretsFrom } from './secrets.ts';

describe('aesGcmSecrets', () => {
  const key = randomBytes(32);

  it('seals a value so that it reads back, and never the same way twice', async () => {
    const secrets = aesGcmSecrets(key);
    const first = await secrets.encrypt('task-1234');
    const second = await secrets.encrypt('task-1234');
    expect(first).not.toContain('task-1234');
    expect(first).not.toBe(second);
    expect(await secrets.decrypt(first)).toBe('task-1234');
  });

  it('refuses a value changed in storage, or sealed by another key', async () => {
    const sealed = await aesGcmSecrets(key).encrypt('token');
    const [version, iv, body] = sealed.split('.');
    const flipped = `${body!.startsWith('A') ? 'B' : 'A'}${body!.slice(1)}`;
    expect(() => aesGcmSecrets(key).decrypt(`${version}.${iv}.${flipped}`)).toThrow();
    expect(() => aesGcmSecrets(randomBytes(32)).decrypt(sealed)).toThrow();
  });

  it('takes the key as bytes, hex or base64, and only 32 bytes of it', async () => {
    const sealed = await aesGcmSecrets(key).encrypt('x');
    expect(await aesGcmSecrets(key.toString('hex')).decrypt(sealed)).toBe('x');
    expect(await aesGcmSecrets(key.toString('base64')).decrypt(sealed)).toBe('x');
    expect(() => aesGcmSecrets(randomBytes(16))).toThrow(TypeError);
    expect(() => aesGcmSecrets('')).toThrow(TypeError);
  });
});

describe('secretsFrom', () => {
  it("stores in clear only when told 'plaintext'", async () => {
    expect(await secretsFrom('plaintext').encrypt('x')).toBe('x');
    expect(() => secretsFrom(undefined)).toThrow(/aesGcmSecrets/);
    expect(() => secretsFrom({ encrypt: (x: string) => x } as never)).toThrow(TypeError);
  });
});
