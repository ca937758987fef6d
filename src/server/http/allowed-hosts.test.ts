import { describe, expect, it } from 'vitest';
import { allowedHosts } from './allowed-hosts';

describe('allowedHosts', () => {
  const hosts = allowedHosts({ publicOrigin: 'https://portal.example.com', port: 4321 });

  it('answers to the public origin’s host, in any case', () => {
    expect(hosts.allows('portal.example.com')).toBe(true);
    expect(hosts.allows('Portal.Example.COM')).toBe(true);
  });

  it('answers to this machine’s loopback names on its own port', () => {
    for (const host of ['localhost:4321', '127.0.0.1:4321', '[::1]:4321']) {
      expect(hosts.allows(host), host).toBe(true);
    }
  });

  it('answers to the content editor’s own host when it has one', () => {
    const withEditor = allowedHosts({
      publicOrigin: 'https://portal.example.com',
      contentEditorOrigin: 'https://editor.portal.example.com',
      port: 4321,
    });
    expect(withEditor.allows('editor.portal.example.com')).toBe(true);
    expect(withEditor.allows('portal.example.com')).toBe(true);
    expect(hosts.allows('editor.portal.example.com')).toBe(false);
  });

  it('refuses any other name, port or none at all', () => {
    for (const host of [
      'evil.example',
      'portal.example.com:8443',
      'portal.example.com.evil.example',
      'localhost:4322',
      '127.0.0.2:4321',
      '',
      undefined,
    ]) {
      expect(hosts.allows(host), String(host)).toBe(false);
    }
  });

  it('names the public origin with its port when it is not the scheme’s own', () => {
    const trial = allowedHosts({ publicOrigin: 'http://192.168.1.20:4321', port: 4321 });
    expect(trial.allows('192.168.1.20:4321')).toBe(true);
    expect(trial.allows('192.168.1.20')).toBe(false);
  });

  it('answers only to loopback names without a public origin', () => {
    const local = allowedHosts({ publicOrigin: undefined, port: 4321 });
    expect(local.names).toEqual(['localhost:4321', '127.0.0.1:4321', '[::1]:4321']);
  });
});
