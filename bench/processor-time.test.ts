import { describe, expect, it } from 'vitest';
import { processorMs, processorMsOfStat } from './processor-time.ts';

describe('processorMsOfStat', () => {
  it('adds user and system ticks, read past a command name with spaces and parentheses', () => {
    const stat =
      '4242 (node (the server)) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 75 0 0 20 0 12 0 1 2 3';
    expect(processorMsOfStat(stat)).toBe(3250);
  });

  it('refuses a line that is not one', () => {
    expect(() => processorMsOfStat('nonsense')).toThrow(/Not a \/proc stat line/);
  });
});

describe('processorMs', () => {
  it('reads this very process, which has used some time and goes on using more', () => {
    const before = processorMs(process.pid);
    let spin = 0;
    for (let index = 0; index < 5e7; index += 1) spin += index;
    expect(spin).toBeGreaterThan(0);
    expect(processorMs(process.pid)).toBeGreaterThan(before);
  });
});
