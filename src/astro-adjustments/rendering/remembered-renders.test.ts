import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RememberedRenders } from './remembered-renders';

/** Astro's HTMLString: the HTML of a slot, a String object rather than a primitive string. */
class HtmlString extends String {}

const Heading = () => null;
const Chip = () => null;

describe('RememberedRenders', () => {
  const renders = () => new RememberedRenders({ maxEntries: 2, maxKeyLength: 200 });

  it('gives the same key to the same component, props, slots and ids’ prefix', () => {
    const remembered = renders();
    const key = remembered.key(Heading, { level: 2, id: 'a' }, { default: 'Hi' }, 's0');
    expect(key).toBeDefined();
    expect(remembered.key(Heading, { level: 2, id: 'a' }, { default: 'Hi' }, 's0')).toBe(key);
  });

  it('gives another key to anything else that differs', () => {
    const remembered = renders();
    const keys = [
      remembered.key(Heading, { level: 2 }, {}, 's0'),
      remembered.key(Chip, { level: 2 }, {}, 's0'),
      remembered.key(Heading, { level: 3 }, {}, 's0'),
      remembered.key(Heading, { level: 2 }, {}, 's1'),
      remembered.key(Heading, { level: 2 }, { default: 'x' }, 's0'),
      remembered.key(Heading, { level: 2 }, { default: new HtmlString('x') }, 's0'),
      remembered.key(Heading, { level: 2, hidden: undefined }, {}, 's0'),
      remembered.key(Heading, { level: '2' }, {}, 's0'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives no key to props that are not plain data, or too many of them', () => {
    const remembered = renders();
    class Money {
      readonly cents = 1;
    }
    for (const props of [
      { onPick: () => undefined },
      { icon: { $$typeof: Symbol.for('react.element') } },
      { at: new Date(0) },
      { price: new Money() },
      { ratio: Number.NaN },
      { words: 'x'.repeat(300) },
    ]) {
      expect(remembered.key(Heading, props, {}, 's0'), JSON.stringify(props)).toBeUndefined();
    }
  });

  it('forgets the render used longest ago beyond its size', () => {
    const remembered = renders();
    remembered.remember('a', '<h1>A</h1>');
    remembered.remember('b', '<h1>B</h1>');
    expect(remembered.get('a')).toBe('<h1>A</h1>');
    remembered.remember('c', '<h1>C</h1>');
    expect(remembered.get('b')).toBeUndefined();
    expect(remembered.get('a')).toBe('<h1>A</h1>');
    expect(remembered.size).toBe(2);
  });
});

describe('the kit’s components', () => {
  /** What would make a component's HTML depend on more than its props while it renders. */
  const readsBeyondProps =
    /\bDate\.now\(|\bnew Date\(|\bMath\.random\(|\buse(Context|Store|SyncExternalStore)\(|\bcrypto\./;

  it('read nothing but their props as they render, which remembering their HTML relies on', () => {
    const kit = path.resolve(import.meta.dirname, '../../ui');
    const components = readdirSync(kit, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'),
    );
    expect(components.length).toBeGreaterThan(10);
    const impure = components.filter((file) =>
      readsBeyondProps.test(readFileSync(path.join(kit, file), 'utf8')),
    );
    expect(impure).toEqual([]);
  });
});
